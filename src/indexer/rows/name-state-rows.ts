/**
 * @module name_state's rows of a batch's names from their rows before it and the batch's name events, where those are
 * the names' latest events (a sync's batch above every stored name event): what name_state_refresh (migration 1144)
 * reads back from name_events, without its walks. Pure; the writer supplies the rows before and COPYs the result.
 */
import { stringifyJson } from '../../chain/json.ts';
import type { NameStateWrite, PriorNameRow } from '../../db/writes/name-state.ts';
import type { NameEventRow } from './rows.ts';
import type { TableColumns } from './tables.ts';

/** name_state's columns, as the writer COPYs the rows nameStateRows makes. */
export const NAME_STATE_COLUMNS: TableColumns<NameStateWrite> = {
  table: 'name_state',
  columns: [
    ['name_hash', 'text', (r) => r.nameHash],
    ['name', 'text', (r) => r.name],
    ['tx_hash', 'text', (r) => r.txHash],
    ['created_at_height', 'int', (r) => r.createdAtHeight],
    ['auction_end_height', 'int', (r) => r.auctionEndHeight],
    ['owner', 'text', (r) => r.owner],
    ['expires_at', 'int', (r) => r.expiresAt],
    ['pointers', 'jsonb', (r) => stringifyJson(r.pointers)],
    ['kind', 'text', (r) => r.kind],
  ],
};

/**
 * nameStateRows gives the row of each name `events` (a batch's, in chain order, above every stored event of their
 * names) touch, from `prior` (the rows before, by name hash), as the refresh computes it over all the name's events:
 * its latest event's owner, expiry, pointers and kind; its latest claim (a claim event with a name), the batch's or the
 * row's; the greatest auction end of the claims and bids from that claim's height on, else the claim's height. A row
 * kept from before adds the batch's auction ends to its own (each at or above its event's height, so above the
 * fallback to the claim's height). A name with no claim, stored or in the batch, has no row.
 */
export function nameStateRows(
  prior: ReadonlyMap<string, PriorNameRow>,
  events: readonly NameEventRow[],
): NameStateWrite[] {
  const byName = new Map<string, NameEventRow[]>();
  for (const e of events) {
    const list = byName.get(e.nameHash);
    if (list) list.push(e);
    else byName.set(e.nameHash, [e]);
  }
  const rows: NameStateWrite[] = [];
  for (const [nameHash, list] of byName) {
    const last = list.at(-1)!;
    const claim = list.findLast((e) => e.kind === 'claim' && e.name !== null);
    const before = prior.get(nameHash);
    const from = claim ? claim.height : before?.createdAtHeight;
    if (from === undefined) continue;
    let auctionEnd: number | null = claim ? null : before!.auctionEndHeight;
    for (const e of list)
      if ((e.kind === 'claim' || e.kind === 'bid') && e.height >= from && e.auctionEnd !== null)
        auctionEnd = auctionEnd === null ? e.auctionEnd : Math.max(auctionEnd, e.auctionEnd);
    rows.push({
      nameHash,
      name: claim ? claim.name! : before!.name,
      txHash: claim ? claim.txHash : before!.txHash,
      createdAtHeight: from,
      auctionEndHeight: auctionEnd ?? from,
      owner: last.owner,
      expiresAt: last.expiresAt,
      pointers: last.pointers,
      kind: last.kind,
    });
  }
  return rows;
}
