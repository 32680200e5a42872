/**
 * @module The replay tier's node (issue 87): a loopback HTTP server answering a real æternity node's recorded exchanges
 * (test/fixtures/real-node/*.ndjson.gz) on an external and an internal listener, as replay-match.ts finds them. It is
 * a node that kept only the states the recording holds: a read of a past block's state the recording lacks (and no
 * rule derives) is refused as a pruning node refuses it (replay-match.ts prunedState) and kept in `pruned`; any other
 * request the recording lacks is answered as the node answers an unknown route, an empty 404, and kept as a miss.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readExchanges, type Exchange } from './real-node-recording.ts';
import {
  answerOf,
  indexRecording,
  prunedState,
  RULE_PRUNED,
  type Recording,
  type ReplayRequest,
} from './replay-match.ts';

/** readRecording reads every exchange of the recording (its chain, dry-run and error files), in file and line order. */
export function readRecording(): Exchange[] {
  return ['chain', 'dry-run', 'errors'].flatMap((file) => readExchanges(`${file}.ndjson.gz`));
}

const versionless = (path: string): string => path.replace(/^\/v[23]\//, '/');

/** A request the recording could not answer (a miss, or a state read refused as pruned). */
export interface Miss {
  readonly port: 'external' | 'internal';
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

/** The replay node: its two base URLs, what it answered and what it missed. */
export class ReplayNode {
  readonly #recording: Recording;
  readonly #servers: Server[] = [];
  readonly #misses: Miss[] = [];
  readonly #pruned: Miss[] = [];
  readonly #rules = new Map<string, number>();
  /** requests by path without its API version: the server forwards a `/v3` read as the node's `/v2` */
  readonly #byPath = new Map<string, number>();
  #asked = 0;
  #externalUrl = '';
  #internalUrl = '';

  constructor(exchanges: readonly Exchange[] = readRecording()) {
    this.#recording = indexRecording(exchanges);
  }

  get externalUrl(): string {
    return this.#externalUrl;
  }

  get internalUrl(): string {
    return this.#internalUrl;
  }

  /** misses are the requests answered with the empty 404, in the order asked. */
  get misses(): readonly Miss[] {
    return this.#misses;
  }

  /** pruned are the reads of a past block's state the recording lacks, refused as a pruning node, in the order asked. */
  get pruned(): readonly Miss[] {
    return this.#pruned;
  }

  /** asked counts every request, answered or missed */
  get asked(): number {
    return this.#asked;
  }

  /** askedFor counts the requests for `path` under either API version. */
  askedFor(path: string): number {
    return this.#byPath.get(versionless(path)) ?? 0;
  }

  /** answered counts the requests answered, by how (`recorded` or a rule's name). */
  get answered(): ReadonlyMap<string, number> {
    return this.#rules;
  }

  async start(): Promise<void> {
    this.#externalUrl = await this.#listen('external');
    this.#internalUrl = await this.#listen('internal');
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.#servers.splice(0).map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    );
  }

  async #listen(port: ReplayRequest['port']): Promise<string> {
    const server = createServer((req, res) => void this.#handle(port, req, res));
    this.#servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async #handle(port: ReplayRequest['port'], req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.#asked += 1;
    const key = versionless(req.url ?? '/');
    this.#byPath.set(key, (this.#byPath.get(key) ?? 0) + 1);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request: ReplayRequest = {
      port,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      body: Buffer.concat(chunks).toString('utf8'),
      json: (req.headers['content-type'] ?? '').startsWith('application/json'),
    };
    const asked = { port, method: request.method, path: request.path, body: request.body };
    const answer = answerOf(this.#recording, request) ?? prunedState(this.#recording, request);
    if (answer?.rule === RULE_PRUNED) this.#pruned.push(asked);
    if (answer === undefined) {
      this.#misses.push(asked);
      // the node's unknown route: 404, no body, no content-type (README item 6)
      res.writeHead(404, { server: 'Cowboy' });
      res.end();
      return;
    }
    this.#rules.set(answer.rule, (this.#rules.get(answer.rule) ?? 0) + 1);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }
}
