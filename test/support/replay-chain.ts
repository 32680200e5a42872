/**
 * @module The recorded chain as the replay tier's rules read it (replay-match.ts): its blocks in chain order and the
 * transactions of each, from the recording's own `/v3/generations/height/H` and micro blocks' `/transactions`; and
 * which transactions may have changed a contract's state. Pure.
 */
import { decode } from '@aeternity/aepp-sdk';
import { isJsonObject, parseJson, stringifyJson, type Json } from '../../src/chain/json.ts';
import type { Exchange } from './real-node-recording.ts';

/** A block of the recorded chain: its generation and its place in chain order (key block, then its micro blocks). */
export interface ChainBlock {
  readonly hash: string;
  readonly height: number;
  readonly order: number;
}

/** The recorded chain: its blocks by hash, its top block and what each block's transactions name. */
export interface RecordedChain {
  readonly blocks: ReadonlyMap<string, ChainBlock>;
  /** the last block of the top generation: the state a top-less dry-run runs on */
  readonly top: ChainBlock;
  /** each block's transactions as text (transaction JSON, its call info, its replays' answers), by block order */
  readonly texts: ReadonlyMap<number, readonly string[]>;
  /** each block's transactions' raw bytes (`encoded_tx`: calldata and code included), by block order */
  readonly raw: ReadonlyMap<number, readonly Buffer[]>;
  /** every contract's bytecode, by `ct_` id */
  readonly code: ReadonlyMap<string, Buffer>;
}

const GENERATION = /^\/v3\/generations\/height\/(\d+)$/;

const bytesOf = (id: string): Buffer => Buffer.from(decode(id as `ct_${string}`));

/** recordedChain reads the chain out of the recording's exchanges. */
export function recordedChain(exchanges: readonly Exchange[]): RecordedChain {
  const bodies = new Map(exchanges.filter((e) => e.method === 'GET' && e.status === 200).map((e) => [e.path, e.body]));
  const generations = [...bodies.keys()]
    .flatMap((p) => {
      const m = GENERATION.exec(p);
      return m ? [Number(m[1])] : [];
    })
    .sort((a, b) => a - b);
  const blocks = new Map<string, ChainBlock>();
  const texts = new Map<number, string[]>();
  const raw = new Map<number, Buffer[]>();
  const replays = exchanges.filter((e) => e.label?.startsWith('replay ')).map((e) => `${e.request_body} ${e.body}`);
  let order = 0;
  let top: ChainBlock | undefined;
  for (const height of generations) {
    const gen = parseJson(bodies.get(`/v3/generations/height/${height}`)!) as { [k: string]: Json };
    const key = gen.key_block as { hash: string };
    const micros = gen.micro_blocks as string[];
    for (const hash of [key.hash, ...micros]) {
      top = { hash, height, order: order++ };
      blocks.set(hash, top);
      const list = hash.startsWith('mh_')
        ? ((
            parseJson(bodies.get(`/v3/micro-blocks/hash/${hash}/transactions`) ?? '{"transactions":[]}') as {
              transactions: { hash: string; encoded_tx: string }[];
            }
          ).transactions ?? [])
        : [];
      texts.set(
        top.order,
        list.map((t) => {
          const info = bodies.get(`/v3/transactions/${t.hash}/info`) ?? '';
          const replayed = replays.filter((r) => r.includes(t.hash) || r.includes(t.encoded_tx.slice(3, 40)));
          return [stringifyJson(t), info, ...replayed].join('\n');
        }),
      );
      raw.set(
        top.order,
        list.map((t) => Buffer.from(decode(t.encoded_tx as `tx_${string}`))),
      );
    }
  }
  const code = new Map<string, Buffer>();
  for (const [path, body] of bodies) {
    const m = /^\/v3\/contracts\/(ct_[1-9A-Za-z]+)\/code$/.exec(path);
    const parsed = m ? parseJson(body) : undefined;
    if (m && isJsonObject(parsed) && typeof parsed.bytecode === 'string')
      code.set(m[1]!, Buffer.from(decode(parsed.bytecode as `cb_${string}`)));
  }
  if (!top) throw new Error('the recording holds no generation');
  return { blocks, top, texts, raw, code };
}

/**
 * mayHaveChanged says whether a transaction in the blocks after `from` up to `to` (chain order, either way round) may
 * have changed the state of `contract` (a contract, or an account by its key under `ct_`): one that names it (its `ct_` or `ak_` id in the transaction, its call
 * info or its recorded replays: a call of it, a spend to it, a log or internal call of it), one whose bytes hold its
 * key (an argument naming it, or a new contract's code or init arguments holding it), or a call of a contract that
 * may know it (its code or any transaction of it held the key: such a contract may call it without naming it).
 */
export function mayHaveChanged(chain: RecordedChain, contract: string, from: ChainBlock, to: ChainBlock): boolean {
  const key = bytesOf(contract);
  const ids = [contract, `ak_${contract.slice(3)}`];
  const knowers = contractsKnowing(chain, key);
  const [low, high] = from.order <= to.order ? [from, to] : [to, from];
  for (let order = low.order + 1; order <= high.order; order++) {
    const texts = chain.texts.get(order) ?? [];
    const raw = chain.raw.get(order) ?? [];
    for (const [i, text] of texts.entries()) {
      if (ids.some((id) => text.includes(id)) || raw[i]!.includes(key)) return true;
      if ([...knowers].some((k) => text.includes(k))) return true;
    }
  }
  return false;
}

/** contractsKnowing are the contracts whose code, or a transaction naming them, holds `key` anywhere. */
function contractsKnowing(chain: RecordedChain, key: Buffer): Set<string> {
  const knowers = new Set<string>();
  for (const [id, code] of chain.code) if (code.includes(key)) knowers.add(id);
  for (const [order, raws] of chain.raw)
    for (const [i, bytes] of raws.entries()) {
      if (!bytes.includes(key)) continue;
      for (const id of chain.code.keys()) if (chain.texts.get(order)![i]!.includes(id)) knowers.add(id);
    }
  return knowers;
}
