/**
 * @module AEX-9 truth of a devnode chain, two ways: balances replayed from the call logs (every standard event,
 * creation included, in chain and emission order) and the devnode's own token ledger.
 */
import type { Chain } from '../../src/devnode/chain.ts';
import { kindOfCode } from '../../src/devnode/contracts/standards.ts';
import { eventTopic } from '../../src/devnode/contracts/frame.ts';
import { encode } from '../../src/chain/encoding.ts';

/** Balances keyed `<contract> <account>`. */
export type Balances = Map<string, bigint>;
export const balanceKey = (contract: string, account: string): string => `${contract} ${account}`;

const account = (topic: bigint): string => encode('ak', Buffer.from(topic.toString(16).padStart(64, '0'), 'hex'));

/** positive keeps the non-zero balances, sorted by key. */
export const positive = (m: Balances): Balances => new Map([...m].filter(([, v]) => v !== 0n).sort());

/** aex9Tokens are the contracts the devnode runs as AEX-9 tokens (fungible tokens, wrapped AE, DEX pairs), by kind. */
export function aex9Tokens(chain: Chain): Map<string, string> {
  const found = new Map<string, string>();
  for (const [id, c] of chain.state.contracts.entries()) {
    const kind = kindOfCode(c.code);
    if (kind === 'aex9' || kind === 'aex9_unlogged' || kind === 'wae' || kind === 'pair') found.set(id, kind);
  }
  return found;
}

/** wrappedAe is the devnode's wrapped AE contract. */
export function wrappedAe(chain: Chain): string {
  return [...aex9Tokens(chain)].find(([, kind]) => kind === 'wae')?.[0] ?? '';
}

const [TRANSFER, MINT, BURN, SWAP, DEPOSIT, WITHDRAWAL] = [
  'Transfer',
  'Mint',
  'Burn',
  'Swap',
  'Deposit',
  'Withdrawal',
].map(eventTopic);

/**
 * balancesFromLogs replays every AEX-9 event of the chain up to (and including) the block `upto` (a micro block
 * hash; the whole chain when absent; a key block hash: the blocks before it).
 */
export function balancesFromLogs(chain: Chain, upto?: string): Balances {
  return balancesFromLogsAt(chain, upto === undefined ? [] : [upto]).get(upto) ?? new Map();
}

/**
 * balancesFromLogsAt is balancesFromLogs at each block of `uptos`, in one replay of the chain (one from genesis for
 * each block made a check of every 25th height quadratic in the chain's length); the whole chain's under `undefined`,
 * and under any block of `uptos` the chain does not hold.
 */
export function balancesFromLogsAt(chain: Chain, uptos: readonly string[]): Map<string | undefined, Balances> {
  const tokens = aex9Tokens(chain);
  const wae = wrappedAe(chain);
  const wanted = new Set(uptos);
  const at = new Map<string | undefined, Balances>();
  const sums: Balances = new Map();
  const add = (contract: string, who: bigint, delta: bigint): void => {
    const k = balanceKey(contract, account(who));
    sums.set(k, (sums.get(k) ?? 0n) + delta);
  };
  const reached = (hash: string): void => {
    if (wanted.has(hash)) at.set(hash, positive(sums));
  };
  for (const kb of chain.keyBlocks) {
    reached(kb.hash);
    for (const mb of kb.micro) {
      for (const record of mb.txs) {
        const log = (record.callInfo?.log ?? []) as { address: string; topics: bigint[] }[];
        for (const { address, topics } of [...log].reverse()) {
          if (!tokens.has(address)) continue;
          const [topic, a, b, c] = topics;
          const isWae = address === wae;
          if (topic === TRANSFER) {
            add(address, a!, -c!);
            add(address, b!, c!);
          } else if (topic === MINT || (isWae && topic === DEPOSIT)) add(address, a!, b!);
          else if (topic === BURN || topic === SWAP || (isWae && topic === WITHDRAWAL)) add(address, a!, -b!);
        }
      }
      reached(mb.hash);
    }
  }
  const whole = positive(sums);
  at.set(undefined, whole);
  for (const upto of uptos) if (!at.has(upto)) at.set(upto, whole);
  return at;
}

/** ledgerBalances reads each token's balances from the devnode's contract store. */
export function ledgerBalances(chain: Chain): Balances {
  const store = chain.state.contractStore;
  const out: Balances = new Map();
  // the holders are kept one slot each, `h:0` … `h:{count − 1}` (contracts/aex9.ts)
  for (const id of aex9Tokens(chain).keys())
    for (let i = 0; i < Number(store.get(`${id}/holders`) ?? 0n); i++) {
      const holder = store.get(`${id}/h:${i}`) as string;
      out.set(balanceKey(id, holder), store.get(`${id}/b:${holder}`) as bigint);
    }
  return positive(out);
}
