/**
 * @module The (sender, recipient) pairs of a batch's transactions (migration 1077): for each position, every id whose
 * account row names it a sender with every one whose row names it a recipient, from the account rows as stored. Pure.
 */
import { PAIR_FIELDS } from '../../db/queries/account-fields.ts';
import type { AccountPairRow, AccountTxRow } from './rows.ts';

const SENDER_FIELDS: ReadonlySet<string> = new Set(PAIR_FIELDS.sender);
const RECIPIENT_FIELDS: ReadonlySet<string> = new Set(PAIR_FIELDS.recipient);

/** A position's senders and recipients, each once (an id has one row at a position), and its first row. */
interface Ends {
  readonly senders: string[];
  readonly recipients: string[];
  readonly row: AccountTxRow;
}

/** namesAny tells whether a row's fields hold one of `names`. */
function namesAny(fields: readonly string[], names: ReadonlySet<string>): boolean {
  for (const f of fields) if (names.has(f)) return true;
  return false;
}

/**
 * accountPairs pairs the account rows of each position. `direct` are the transactions' own ids; `reached` those reached
 * through names, stored only where the id has no row at that position yet (the writer's first-wins insert), so a row
 * `reached` that repeats one is left out here too. The transactions' own rows name each id once at a position (one
 * row per id), so only where some are `reached` is a key kept per row; and only a sender's or recipient's position is
 * keyed, once per run of rows at the same position (a batch's pairs cost 17 MiB of keys, spread copies and sets a
 * 1 500-generation load, where most rows pair nothing: a call's, a reward's).
 */
export function accountPairs(direct: readonly AccountTxRow[], reached: readonly AccountTxRow[]): AccountPairRow[] {
  const stored = new Map<string, Ends>();
  const seen = reached.length === 0 ? undefined : new Set<string>();
  let last: AccountTxRow | undefined;
  let position = '';
  for (const rows of [direct, reached])
    for (const row of rows) {
      const sends = namesAny(row.fields, SENDER_FIELDS);
      const receives = namesAny(row.fields, RECIPIENT_FIELDS);
      // a row that pairs nothing needs no key unless it may hide a `reached` one
      if (seen === undefined && !sends && !receives) continue;
      if (
        last === undefined ||
        row.txIndex !== last.txIndex ||
        row.microIndex !== last.microIndex ||
        row.height !== last.height
      )
        position = `${row.height} ${row.microIndex} ${row.txIndex}`;
      last = row;
      if (seen !== undefined) {
        const key = `${row.account} ${position}`;
        if (seen.has(key)) continue;
        seen.add(key);
      }
      if (!sends && !receives) continue;
      let at = stored.get(position);
      if (at === undefined) stored.set(position, (at = { senders: [], recipients: [], row }));
      if (sends) at.senders.push(row.account);
      if (receives) at.recipients.push(row.account);
    }
  const pairs: AccountPairRow[] = [];
  for (const { senders, recipients, row } of stored.values())
    for (const sender of senders)
      for (const recipient of recipients)
        pairs.push({
          height: row.height,
          microIndex: row.microIndex,
          txIndex: row.txIndex,
          txHash: row.txHash,
          sender,
          recipient,
        });
  return pairs;
}
