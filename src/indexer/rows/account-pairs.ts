/**
 * @module The (sender, recipient) pairs of a batch's transactions (migration 1077): for each position, every id whose
 * account row names it a sender with every one whose row names it a recipient, from the account rows as stored. Pure.
 */
import { PAIR_FIELDS } from '../../db/queries/account-fields.ts';
import type { AccountPairRow, AccountTxRow } from './rows.ts';

const SENDER_FIELDS: ReadonlySet<string> = new Set(PAIR_FIELDS.sender);
const RECIPIENT_FIELDS: ReadonlySet<string> = new Set(PAIR_FIELDS.recipient);

/**
 * accountPairs pairs the account rows of each position. `direct` are the transactions' own ids; `reached` those reached
 * through names, stored only where the id has no row at that position yet (the writer's first-wins insert), so a row
 * `reached` that repeats one is left out here too.
 */
export function accountPairs(direct: readonly AccountTxRow[], reached: readonly AccountTxRow[]): AccountPairRow[] {
  const stored = new Map<string, { senders: Set<string>; recipients: Set<string>; row: AccountTxRow }>();
  const seen = new Set<string>();
  for (const row of [...direct, ...reached]) {
    const position = `${row.height} ${row.microIndex} ${row.txIndex}`;
    const key = `${row.account} ${position}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const sends = row.fields.some((f) => SENDER_FIELDS.has(f));
    const receives = row.fields.some((f) => RECIPIENT_FIELDS.has(f));
    if (!sends && !receives) continue;
    let at = stored.get(position);
    if (at === undefined) stored.set(position, (at = { senders: new Set(), recipients: new Set(), row }));
    if (sends) at.senders.add(row.account);
    if (receives) at.recipients.add(row.account);
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
