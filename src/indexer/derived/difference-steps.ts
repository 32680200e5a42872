/**
 * @module Where inside a range an account's derived balance parted from the node's (issue 89): the node's state after
 * a few of the range's blocks, chosen by bisection, tells the blocks within which the difference arose, so its
 * 'unexplained' change is stored there and not at the range's end, and every balance served inside the range is the
 * node's. Asked only for the accounts whose balance at the range's end differs (a call wrapped in a PayingForTx or
 * GAMetaTx, whose internal calls no dry-run tells; a rule the node applies otherwise).
 */
import type { Place, RangeBlock } from '../../db/queries/balance-inputs.ts';
import { comparePlaces } from './balance-changes.ts';
import { AFTER_BLOCK } from '../../db/queries/balance-changes.ts';

/**
 * A step of an account's difference: node − derived grew by `amount` after block `from` (exclusive; −1: before the
 * range) and by block `index` (inclusive): one block when found (`from` = index − 1), more where the node could not be
 * asked further (its state pruned, the reads' bound reached).
 */
export interface DifferenceStep {
  readonly from: number;
  readonly index: number;
  readonly amount: bigint;
}

/**
 * differenceSteps finds the blocks (indices of the range's `count` blocks, in chain order) within which node − derived
 * changed, from its value after the last block (`atEnd`) and 0 before the first: it asks `gap(i)`, the difference
 * after block i, only inside an interval whose two ends differ, halving it, so k steps among n blocks take at most
 * k·log2(n) reads (and never more than n), asked in log2(n) rounds. A change undone within one interval (+x then −x
 * between two reads) is not seen: the balances at both reads are the node's. An interval the node cannot tell of
 * (`gap` undefined: a pruned state), or not asked once `maxReads` are spent, stays one step over its blocks: the
 * balance after every block read is still the node's. The `suspects` (blocks where a transaction the rules could not
 * tell names the account) are asked first, before and after each, in one round: a difference that arose in them is
 * found in those reads, not log2(n) a step; the bisection then looks only into the intervals whose ends still differ.
 */
export async function differenceSteps(
  count: number,
  atEnd: bigint,
  gap: (index: number) => Promise<bigint | undefined>,
  { maxReads = Infinity, suspects = [] }: { readonly maxReads?: number; readonly suspects?: readonly number[] } = {},
): Promise<DifferenceStep[]> {
  const known = new Map<number, bigint>([
    [-1, 0n],
    [count - 1, atEnd],
  ]);
  const steps: DifferenceStep[] = [];
  const step = (lo: number, hi: number): void => {
    const grew = known.get(hi)! - known.get(lo)!;
    if (grew !== 0n) steps.push({ from: lo, index: hi, amount: grew });
  };
  let reads = 0;
  if (atEnd !== 0n) {
    const around = new Set(suspects.flatMap((i) => [i - 1, i]));
    const first = [...around].filter((i) => i >= 0 && i < count && !known.has(i)).slice(0, maxReads);
    const answers = await Promise.all(first.map(gap));
    reads += first.length;
    first.forEach((i, k) => answers[k] !== undefined && known.set(i, answers[k]));
  }
  // intervals (lo, hi] still to look into, halved a round at a time: a round's reads are asked at once
  const points = [...known.keys()].sort((a, b) => a - b);
  let open: (readonly [number, number])[] = points.slice(1).map((hi, i) => [points[i]!, hi] as const);
  while (open.length > 0) {
    const halved: (readonly [number, number, number])[] = [];
    for (const [lo, hi] of open) {
      if (known.get(hi) === known.get(lo)) continue;
      if (hi === lo + 1 || reads >= maxReads) step(lo, hi);
      else {
        reads++;
        halved.push([lo, Math.floor((lo + hi) / 2), hi]);
      }
    }
    const answers = await Promise.all(halved.map(([, mid]) => gap(mid)));
    open = halved.flatMap(([lo, mid, hi], i) => {
      const answer = answers[i];
      if (answer === undefined) {
        step(lo, hi);
        return [];
      }
      known.set(mid, answer);
      return [[lo, mid] as const, [mid, hi] as const];
    });
  }
  return steps.sort((a, b) => a.index - b.index);
}

/**
 * balanceAfter gives an account's derived balance after each block asked, from its balance before the range and its
 * changes (in chain order): a binary search over their running sums. Pure.
 */
export function balanceAfter(
  before: bigint,
  changes: readonly (Place & { readonly amount: bigint })[],
): (block: Pick<RangeBlock, 'height' | 'microIndex'>) => bigint {
  const sums: bigint[] = [];
  let sum = before;
  for (const c of changes) sums.push((sum += c.amount));
  return (block) => {
    const end = { height: block.height, microIndex: block.microIndex, txIndex: AFTER_BLOCK };
    // the count of changes at or before the block's end
    let lo = 0;
    let hi = changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (comparePlaces(changes[mid]!, end) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? before : sums[lo - 1]!;
  };
}

/**
 * stepPlace is where a step is stored: after the first transaction of its blocks the rules could not tell that names
 * the account (where it most likely arose), else after its last block. Pure.
 */
export function stepPlace(
  blocks: readonly Pick<RangeBlock, 'height' | 'microIndex'>[],
  step: Pick<DifferenceStep, 'from' | 'index'>,
  account: string,
  untold: readonly (Place & { readonly accounts: readonly string[] })[],
): Place {
  const first = step.from < 0 ? undefined : blocks[step.from]!;
  const last = blocks[step.index]!;
  const after = first && { height: first.height, microIndex: first.microIndex, txIndex: AFTER_BLOCK };
  const upTo = { height: last.height, microIndex: last.microIndex, txIndex: AFTER_BLOCK };
  // untold is in chain order: the first place after `first`'s block by bisection, then on to `last`'s block's end
  let lo = 0;
  let hi = untold.length;
  while (after && lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comparePlaces(untold[mid]!, after) > 0) hi = mid;
    else lo = mid + 1;
  }
  let cause: Place | undefined;
  for (let i = lo; i < untold.length && comparePlaces(untold[i]!, upTo) <= 0; i++)
    if (untold[i]!.accounts.includes(account)) {
      cause = untold[i];
      break;
    }
  return cause
    ? { height: cause.height, microIndex: cause.microIndex, txIndex: cause.txIndex }
    : { height: last.height, microIndex: last.microIndex, txIndex: AFTER_BLOCK };
}
