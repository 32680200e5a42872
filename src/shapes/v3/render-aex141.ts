/** @module ae_mdw's AEX-141 objects: collection, token, template, template token and transfer. Pure. */
import type { Json } from '../../chain/json.ts';
import type {
  CollectionRow,
  LimitAt,
  TemplateRow,
  TemplateTokenRow,
  TokenRow,
  Aex141TransferRow,
} from '../../db/queries/aex141-collections.ts';
import { transferPlace } from './render-aex9.ts';
import type { ShapeValue } from '../shape-table.ts';
import type {
  AEX141_COLLECTION,
  AEX141_TEMPLATE,
  AEX141_TEMPLATE_TOKEN,
  AEX141_TOKEN,
  AEX141_TRANSFER,
} from './shapes-aex141.ts';

/** Token ids, limits and editions are unbounded integers: exact bigints on the wire. */
const big = (text: string): bigint => BigInt(text);

const later = (a: LimitAt | null, b: LimitAt | null): LimitAt | null => {
  if (!a || !b) return a ?? b;
  for (let i = 0; i < 4; i++) if (a.position[i] !== b.position[i]) return a.position[i]! > b.position[i]! ? a : b;
  return a;
};

/** limitsObject is ae_mdw's `limits`: the latest token and template limits and where the latest of them was set; null without any. */
export function limitsObject(token: LimitAt | null, template: LimitAt | null): { [key: string]: Json } | null {
  const last = later(token, template);
  if (!last) return null;
  return {
    token_limit: token ? big(token.value) : null,
    template_limit: template ? big(template.value) : null,
    limit_tx_hash: last.txHash,
    limit_log_idx: last.logIdx,
  };
}

/** collectionObject is ae_mdw's Aex141Response. */
export function collectionObject(c: CollectionRow): Record<string, Json> {
  return {
    contract_id: c.contractId,
    contract_tx_hash: c.txHash,
    name: c.name,
    symbol: c.symbol,
    base_url: c.baseUrl,
    metadata_type: c.metadataType,
    extensions: c.extensions,
    limits: limitsObject(c.tokenLimit, c.templateLimit),
    nft_owners: c.nftOwners,
    nfts_amount: c.nftsAmount,
    invalid: c.invalid,
    creation_time: Number(c.creationTime),
    block_height: c.height,
    // ours: the node had pruned the call info of a call since the collection's creation, whose events
    // (of this collection or not) are unknown, so counts, owners and transfers may miss some
    incomplete: c.incomplete,
  } satisfies ShapeValue<typeof AEX141_COLLECTION>;
}

/** tokenObject is ae_mdw's Aex141TokenResponse. */
export function tokenObject(t: TokenRow): Record<string, Json> {
  return { contract_id: t.contractId, owner_id: t.ownerId, token_id: big(t.tokenId) } satisfies ShapeValue<
    typeof AEX141_TOKEN
  >;
}

/** templateTokenObject is ae_mdw's Aex141TemplateTokensResponse: the token, its owner and its template mint. */
export function templateTokenObject(t: TemplateTokenRow): Record<string, Json> {
  return {
    token_id: big(t.tokenId),
    owner_id: t.ownerId,
    tx_hash: t.mintTxHash,
    log_idx: t.mintLogIdx,
    edition: t.edition,
  } satisfies ShapeValue<typeof AEX141_TEMPLATE_TOKEN>;
}

/**
 * templateObject is ae_mdw's Aex141TemplatesResponse. Its edition holds the limit (when one was set)
 * and the supply minted from the template (when there is one); null when neither.
 */
export function templateObject(contractId: string, t: TemplateRow): Record<string, Json> {
  const limit = t.editionLimit;
  const edition: Record<string, Json> = {
    ...(limit ? { limit: big(limit.value), limit_tx_hash: limit.txHash, limit_log_idx: limit.logIdx } : {}),
    ...(t.supply > 0 ? { supply: t.supply, supply_tx_hash: t.supplyTxHash, supply_log_idx: t.supplyLogIdx } : {}),
  };
  return {
    contract_id: contractId,
    template_id: big(t.templateId),
    tx_hash: t.txHash,
    log_idx: t.logIdx,
    edition: Object.keys(edition).length > 0 ? edition : null,
  } satisfies ShapeValue<typeof AEX141_TEMPLATE>;
}

/** transferObject is ae_mdw's AEX-141 transfer (Aex141TransferEvent). */
export function transferObject(t: Aex141TransferRow): Record<string, Json> {
  return {
    sender: t.fromId,
    recipient: t.toId,
    token_id: big(t.tokenId),
    contract_id: t.contractId,
    ...transferPlace(t),
  } satisfies ShapeValue<typeof AEX141_TRANSFER>;
}
