/**
 * @module What a batch's derived areas ask the node, asked while the batch is prepared (issue 40). The balances area
 * reads the accounts a batch touched after its last block, the ga area each GA transaction's info; asked from inside
 * the batch's database transaction, those round trips held the write (and the next batch's behind it) for a node
 * round trip or more per batch. The loader asks them beside the fetch, at the batch's priority, and the areas read the
 * answers through these readers (a GA transaction's info the fetch asked for its contract call is read from the fetch's
 * answer); what was not asked ahead (an account only the database knows the batch touched: a
 * reward to an earlier generation's beneficiary, an account a name resolved to, a channel's party) or failed is asked
 * then, as before. The replays the fetch asked for their call infos (fetch-replays.ts) are taken as the batch's.
 */
import { LOCKED_COINS_ACCOUNT } from '../../chain/derived-ids.ts';
import { reprefix } from '../../chain/encoding.ts';
import type { NodeClient } from '../../node/client.ts';
import type { BalanceReader } from '../derived/account-balances.ts';
import { hasGaCall, type GaInfoReader } from '../derived/ga-calls.ts';
import type { FetchedGeneration, FetchedReplay, GenerationRows } from '../rows/rows.ts';
import {
  batchReplayable,
  readInternalCalls,
  type CodeReader,
  type InternalCalls,
  type Replay,
} from '../derived/internal-calls.ts';
import { answeredReplay } from './fetch-replays.ts';

/**
 * balanceCandidates lists the accounts a batch's own rows show it touches: each account (and oracle, whose account it
 * is) its transactions name, its key blocks' beneficiaries, and the locked-coins account where names move coins
 * there. Pure.
 */
export function balanceCandidates(rows: readonly GenerationRows[]): string[] {
  const ids = new Set<string>();
  for (const r of rows) {
    ids.add(r.keyBlock.beneficiary);
    for (const t of r.accountTxs)
      if (t.account.startsWith('ak_')) ids.add(t.account);
      else if (t.account.startsWith('ok_')) ids.add(reprefix(t.account, 'ak'));
    if (r.nameActions.length > 0) ids.add(LOCKED_COINS_ACCOUNT);
  }
  return [...ids];
}

/** lastBlockHash is the hash of a batch's last block: the state its balances are read in. Pure. */
export function lastBlockHash(gens: readonly FetchedGeneration[]): string {
  const last = gens.at(-1)!;
  return String(last.microBlocks.at(-1)?.header.hash ?? last.keyBlock.hash);
}

/** The readers a batch's derived areas ask the node through. */
export interface BatchNodeReads {
  readonly balances: BalanceReader;
  readonly gaCalls: GaInfoReader;
  /** the batch's internal calls: its micro blocks holding contract calls run again through the node's dry-run */
  readonly internalCalls: Promise<InternalCalls>;
  /** resolves once every read asked ahead has its answer (or failed): what the batch will not ask again */
  readonly settled: Promise<void>;
}

type Node = Pick<NodeClient, 'accountBalance' | 'transactionInfo' | 'replay'>;

/** A request asked ahead; a failed one is asked again when read (its failure says nothing of the read's). */
function asked<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/**
 * askBatchReads asks the node, at the batch's priority (its first height: after the heights before it, before those
 * fetched ahead), the balances of balanceCandidates after the batch's last block (not for a batch that leaves them
 * to the backfill: `ask.balances` false), its internal calls (the calls' code read through `ask.codeOf`, which leaves
 * out those that make none) and the infos of its GA transactions, and gives the readers that answer from them.
 */
export function askBatchReads(
  node: Node,
  gens: readonly FetchedGeneration[],
  rows: readonly GenerationRows[],
  ask: { readonly balances: boolean; readonly codeOf?: CodeReader } = { balances: true },
): BatchNodeReads {
  const priority = gens[0]!.height;
  const after = lastBlockHash(gens);
  const balances = new Map(
    (ask.balances ? balanceCandidates(rows) : []).map(
      (id) => [id, asked(node.accountBalance(id, after, priority))] as const,
    ),
  );
  // a GA transaction the fetch asked already (it wraps a contract tx) is not asked again
  const fetched = new Map(gens.flatMap((g) => [...(g.gaInfos ?? [])]));
  const infos = new Map(
    rows
      .flatMap((r) => r.transactions)
      .filter((t) => hasGaCall(t.tx))
      .map((t) => {
        const info = fetched.get(t.txHash);
        return [t.txHash, asked(info ? Promise.resolve({ info }) : node.transactionInfo(t.txHash, priority))] as const;
      }),
  );
  // a batch without contract calls asks none
  const replayable = batchReplayable(rows);
  // the replays the fetch asked for call infos are not asked again
  const fetchedReplays = new Map(gens.flatMap((g) => (g.replays ? [[g.height, g.replays] as const] : [])));
  const answered = (r: Replay): FetchedReplay['outcome'] | undefined => answeredReplay(fetchedReplays, r);
  const internalCalls = asked(
    replayable.length === 0
      ? Promise.resolve({ calls: [], gaps: [] })
      : readInternalCalls(node, replayable, { ...(ask.codeOf ? { codeOf: ask.codeOf } : {}), answered }),
  );
  return {
    internalCalls,
    settled: Promise.allSettled([...balances.values(), ...infos.values(), internalCalls]).then(() => undefined),
    balances: {
      accountBalance: (id, hash, urgency) => {
        const ahead = hash === after ? balances.get(id) : undefined;
        return ahead?.catch(() => node.accountBalance(id, hash, urgency)) ?? node.accountBalance(id, hash, urgency);
      },
    },
    gaCalls: {
      transactionInfo: (hash, urgency) => {
        const ahead = infos.get(hash);
        return ahead?.catch(() => node.transactionInfo(hash, urgency)) ?? node.transactionInfo(hash, urgency);
      },
    },
  };
}
