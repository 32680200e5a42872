/**
 * @module The node agent's pods as a watch tells them, as an informer keeps them: a list, then the watch events from
 * its resourceVersion applied one by one, and the answers to the agent's own writes. Listing every pod of the cluster
 * again on each event (the agent's own status writes are events too) was about one list a second, each pod encoded by
 * the API server and parsed by the agent every time.
 */
import { StringDecoder } from 'node:string_decoder';
import type { V1Pod } from '@kubernetes/client-node';

/** PodEvent is one line of a watch of pods (an ERROR's object is a Status, and the stream ends after it). */
export interface PodEvent {
  type: string;
  object: V1Pod;
}

const keyOf = (pod: V1Pod): string => `${pod.metadata?.namespace}/${pod.metadata?.name}`;
/** a pod's resourceVersion: etcd's revision, which only grows (the API server's own pods' are numbers too) */
const versionOf = (pod: V1Pod): number => Number(pod.metadata?.resourceVersion ?? 0);

/** PodCache holds the pods of the last list, kept current by the watch started from it. */
export class PodCache {
  readonly #pods = new Map<string, V1Pod>();
  #decoder = new StringDecoder('utf8');
  #partial = '';

  /** pods are the pods as last told. */
  get pods(): V1Pod[] {
    return [...this.#pods.values()];
  }

  /** reset holds a list's pods, and only them: a new watch's stream follows. */
  reset(pods: readonly V1Pod[]): void {
    this.#pods.clear();
    this.#decoder = new StringDecoder('utf8');
    this.#partial = '';
    for (const pod of pods) this.#pods.set(keyOf(pod), pod);
  }

  /** feed takes a piece of the watch's stream: JSON events one a line, the piece's last line perhaps cut short. */
  feed(chunk: Buffer): void {
    const lines = (this.#partial + this.#decoder.write(chunk)).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') this.apply(JSON.parse(line) as PodEvent);
  }

  /** apply takes one event: ADDED and MODIFIED hold the pod, DELETED drops it; ERROR (the stream ends) nothing. */
  apply(event: PodEvent): void {
    if (event.type === 'ADDED' || event.type === 'MODIFIED') this.put(event.object);
    else if (event.type === 'DELETED' && !this.#holdsNewer(event.object)) this.#pods.delete(keyOf(event.object));
  }

  /**
   * put holds a pod the agent wrote (the API server's answer), unless a newer version of it is held: the watch's
   * event for an earlier write may come after the answer to a later one.
   */
  put(pod: V1Pod): void {
    if (!this.#holdsNewer(pod)) this.#pods.set(keyOf(pod), pod);
  }

  /** remove drops a pod the agent deleted. */
  remove(pod: V1Pod): void {
    this.#pods.delete(keyOf(pod));
  }

  #holdsNewer(pod: V1Pod): boolean {
    const held = this.#pods.get(keyOf(pod));
    return held !== undefined && versionOf(held) > versionOf(pod);
  }
}
