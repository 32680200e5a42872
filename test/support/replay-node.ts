/**
 * @module The replay tier's node (issue 87): a loopback HTTP server answering a real æternity node's recorded exchanges
 * (test/fixtures/real-node/*.ndjson.gz) on an external and an internal listener, as replay-match.ts finds them. A
 * request the recording lacks (and no rule derives) is answered as the node answers an unknown route, an empty 404, and
 * kept as a miss: the test fails listing them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordedExchanges } from './real-node.ts';
import { answerOf, indexRecording, type Exchange, type Recording, type ReplayRequest } from './replay-match.ts';

/** readRecording reads every exchange of the recording (its chain, dry-run and error files), in file and line order. */
export function readRecording(): Exchange[] {
  return (['chain', 'dry-run', 'errors'] as const).flatMap(recordedExchanges);
}

/** A request the recording could not answer. */
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
  readonly #rules = new Map<string, number>();
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

  /** asked counts every request, answered or missed */
  get asked(): number {
    return this.#asked;
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
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request: ReplayRequest = {
      port,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      body: Buffer.concat(chunks).toString('utf8'),
      json: (req.headers['content-type'] ?? '').startsWith('application/json'),
    };
    const answer = answerOf(this.#recording, request);
    if (answer === undefined) {
      this.#misses.push({ port, method: request.method, path: request.path, body: request.body });
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
