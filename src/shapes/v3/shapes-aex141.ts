/** @module The shape tables of ae_mdw's AEX-141 collections, tokens, templates and transfers (render-aex141.ts). */
import { asGraphQL, big, bool, id, int, nullable, obj, only, shape, str } from '../shape-table.ts';
import { TOKEN_CONTRACT, TRANSFER_PLACE } from './field-groups.ts';

/** a token or template id: exact, declared `Int` by ae_mdw's GraphQL */
const tokenId = asGraphQL('Int', big);

export const AEX141_COUNT = shape({ openapi: 'Aex141Count' }, { data: int });

export const AEX141_COLLECTION = shape(
  { openapi: 'Aex141Response', graphql: ['Aex141Contract'] },
  {
    ...TOKEN_CONTRACT,
    name: nullable(str),
    symbol: nullable(str),
    base_url: nullable(str),
    metadata_type: nullable(str),
    limits: nullable(obj),
    nft_owners: int,
    nfts_amount: int,
    creation_time: int,
    block_height: int,
    incomplete: only('openapi', bool),
  },
);

export const AEX141_TOKEN = shape(
  { openapi: 'Aex141TokenResponse', graphql: ['Aex141Token'] },
  { contract_id: id('ct'), owner_id: str, token_id: tokenId },
);

export const AEX141_TOKEN_DETAIL = shape(
  { openapi: 'Aex141TokenDetailResponse', graphql: ['Aex141TokenWithMetadata'] },
  {
    contract_id: id('ct'),
    owner_id: only('openapi', str),
    token_id: tokenId,
    metadata: nullable(obj),
    // ae_mdw's GraphQL names the owner `owner`
    owner: { ...only('graphql', str), from: 'owner_id' },
  },
);

export const AEX141_TEMPLATE = shape(
  { openapi: 'Aex141TemplatesResponse', graphql: ['Aex141Template'] },
  { contract_id: id('ct'), template_id: tokenId, tx_hash: id('th'), log_idx: int, edition: nullable(obj) },
);

export const AEX141_TEMPLATE_TOKEN = shape(
  { openapi: 'Aex141TemplateTokensResponse', graphql: ['Aex141TemplateToken'] },
  { owner_id: str, token_id: tokenId, tx_hash: id('th'), log_idx: int, edition: nullable(str) },
);

export const AEX141_TRANSFER = shape(
  { openapi: 'Aex141TransferEvent', graphql: ['Aex141Transfer'] },
  {
    sender: str,
    recipient: str,
    token_id: tokenId,
    contract_id: id('ct'),
    ...TRANSFER_PLACE,
    call_txi: only('graphql', int),
  },
);
