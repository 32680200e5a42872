/**
 * @module Whether the served chain is a hyperchain, as the populator recorded it or else as its node says (`GET
 * /v3/hyperchain/contracts`, answered only by a hyperchain node): what ae_mdw's hyperchain routes and its
 * `/stats/miners*` decide on (hyperchain-guard.ts). Known once, kept for good.
 */
import { isJsonObject, parseJson, type Json } from '../../../chain/json.ts';
import type { Queryable } from '../../../db/connection/pool.ts';
import { hyperchainRecord, type HyperchainContracts } from '../../../db/queries/hyperchain.ts';
import { badResponse } from '../../../node/errors.ts';

export type { HyperchainContracts };

/** A node's answer to a GET: its status and body (a request with no answer rejects with a NodeError). */
export interface NodeAnswer {
  readonly status: number;
  readonly text: string;
  /** its Retry-After, on an error status (a refusal for load: the wait the client is told) */
  readonly retryAfter?: string;
}

/** NodeGet asks the node for a path under its root (`/v3/status`). */
export type NodeGet = (path: string) => Promise<NodeAnswer>;

/** CONTRACTS_PATH: the node's endpoint that only a hyperchain node answers. */
export const CONTRACTS_PATH = '/v3/hyperchain/contracts';

/**
 * contractsOfAnswer reads the node's answer: the contracts on a hyperchain, undefined for its 404 (any other node:
 * the endpoint group is a hyperchain's only). Any other answer throws a NodeError (nothing is decided on it). Pure.
 */
export function contractsOfAnswer(answer: NodeAnswer): HyperchainContracts | undefined {
  if (answer.status === 404) return undefined;
  const body: Json = answer.status === 200 ? parseJson(answer.text) : null;
  if (!isJsonObject(body) || typeof body.staking !== 'string')
    throw badResponse(
      CONTRACTS_PATH,
      `the node answered ${CONTRACTS_PATH} with ${answer.status}`,
      answer.status,
      answer.retryAfter,
    );
  const optional = (v: Json | undefined): string | null => (typeof v === 'string' ? v : null);
  return { staking: body.staking, election: optional(body.election), rewards: optional(body.rewards) };
}

/**
 * HyperchainSource knows whether the chain is a hyperchain from what the populator recorded (no request to the node:
 * a server answers with the node away) or, before it did, from the node, and keeps the answer: a chain does not
 * change its consensus (a schema holds one chain). Requests while the question is out share it; a failed question
 * (the node away: its AppError goes to the client, and the outage log) is asked again by the next request.
 */
export class HyperchainSource {
  readonly #db: Queryable;
  readonly #nodeGet: NodeGet;
  #answer: Promise<HyperchainContracts | undefined> | undefined;

  constructor(db: Queryable, nodeGet: NodeGet) {
    this.#db = db;
    this.#nodeGet = nodeGet;
  }

  /** nodeJson is the node's JSON answer at `path`, undefined for its 404; any other failure throws a NodeError. */
  async nodeJson(path: string): Promise<Json | undefined> {
    const answer = await this.#nodeGet(path);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200)
      throw badResponse(path, `the node answered ${path} with ${answer.status}`, answer.status, answer.retryAfter);
    return parseJson(answer.text);
  }

  /** contracts are the hyperchain's consensus contracts, or undefined on a chain that is not a hyperchain. */
  contracts(): Promise<HyperchainContracts | undefined> {
    if (this.#answer === undefined) {
      const answer = this.#ask();
      answer.catch(() => {
        if (this.#answer === answer) this.#answer = undefined;
      });
      this.#answer = answer;
    }
    return this.#answer;
  }

  async #ask(): Promise<HyperchainContracts | undefined> {
    const recorded = await hyperchainRecord(this.#db);
    if (recorded !== undefined) return recorded.contracts;
    return contractsOfAnswer(await this.#nodeGet(CONTRACTS_PATH));
  }

  /** isHyperchain says whether the chain is a hyperchain. */
  async isHyperchain(): Promise<boolean> {
    return (await this.contracts()) !== undefined;
  }
}
