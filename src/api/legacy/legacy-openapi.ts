/** @module The OpenAPI 3 document of our own API (served at /middleware/api), built from one table of operations. Pure. */
import { GENERATIONS_PAGING } from './routes/chain.ts';
import { RESPONSES, SCHEMAS } from './legacy-openapi-schemas.ts';
import { PAGING_DEFAULTS } from './legacy-params.ts';

type Param =
  'limit' | 'page' | 'cursor' | 'txtype' | 'owner' | 'reverse' | 'sort' | 'length' | 'int-as-string' | `path:${string}`;

/** An operation: method, OpenAPI path, summary and the parameters it accepts. */
export interface Operation {
  readonly method: 'get' | 'post';
  readonly path: string;
  readonly summary: string;
  readonly params: readonly Param[];
  readonly cached?: boolean;
}

const PAGED = ['limit', 'page'] as const;

/** CACHED_NODE_QUERIES are the node's reads the server answers from the database, as the node's /v2 has them. */
const CACHED_NODE_QUERIES: readonly Operation[] = [
  {
    method: 'get',
    path: '/v2/generations/current',
    summary: 'Generation at the database top (node shape)',
    params: [],
    cached: true,
  },
  {
    method: 'get',
    path: '/v2/generations/height/{height}',
    summary: 'Generation at a height (node shape)',
    params: ['path:height'],
    cached: true,
  },
  {
    method: 'get',
    path: '/v2/key-blocks/current/height',
    summary: 'Height of the database top',
    params: [],
    cached: true,
  },
  {
    method: 'get',
    path: '/v2/key-blocks/hash/{hash}',
    summary: 'Key block by hash (node shape)',
    params: ['path:hash'],
    cached: true,
  },
  {
    method: 'get',
    path: '/v2/key-blocks/height/{height}',
    summary: 'Key block by height (node shape)',
    params: ['path:height'],
    cached: true,
  },
  {
    method: 'get',
    path: '/v2/micro-blocks/hash/{hash}/header',
    summary: 'Micro block header (node shape)',
    params: ['path:hash'],
    cached: true,
  },
  {
    method: 'get',
    path: '/v2/micro-blocks/hash/{hash}/transactions',
    summary: 'Transactions of a micro block (node shape)',
    params: ['path:hash'],
    cached: true,
  },
  {
    method: 'get',
    path: '/v2/micro-blocks/hash/{hash}/transactions/count',
    summary: 'Transaction count of a micro block',
    params: ['path:hash'],
    cached: true,
  },
  {
    method: 'get',
    path: '/v2/micro-blocks/hash/{hash}/transactions/index/{index}',
    summary: 'Transaction of a micro block by its 1-based index (node shape)',
    params: ['path:hash', 'path:index'],
    cached: true,
  },
  {
    method: 'get',
    path: '/v2/transactions/{hash}',
    summary: 'Transaction by hash (node shape; pending ones come from the node)',
    params: ['path:hash'],
    cached: true,
  },
];

/**
 * OPERATIONS lists every route the server answers itself; everything else is forwarded to the node. The cached
 * node queries are in the node's /v2 and its /v3 (where `int-as-string` writes every integer as a string; with
 * ROOT_V3=mdw the root /v3 is ae_mdw's instead, whose document is at /mdw/v3/api).
 */
export const OPERATIONS: readonly Operation[] = [
  ...CACHED_NODE_QUERIES,
  ...CACHED_NODE_QUERIES.map((op) => ({
    ...op,
    path: op.path.replace(/^\/v2\//, '/v3/'),
    params: [...op.params, 'int-as-string' as const],
  })),
  {
    method: 'get',
    path: '/middleware/generations/{from}/{to}',
    summary: 'Generations from..to with micro blocks and transactions, newest first',
    params: ['path:from', 'path:to', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/new/generations/{from}/{to}',
    summary: 'Generations from..to, oldest first, in the original shape (key block, micro blocks, RawTx)',
    params: ['path:from', 'path:to', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/count/current',
    summary: 'Number of stored transactions up to the top',
    params: [],
  },
  {
    method: 'get',
    path: '/middleware/height/at/{millis}',
    summary: 'First key block at or after a time (ms since epoch)',
    params: ['path:millis'],
  },
  { method: 'get', path: '/middleware/size/current', summary: 'Summed transaction size up to the top', params: [] },
  {
    method: 'get',
    path: '/middleware/size/height/{height}',
    summary: 'Summed transaction size up to a height',
    params: ['path:height'],
  },
  {
    method: 'get',
    path: '/middleware/reward/height/{height}',
    summary: 'Beneficiary and fee share of a key block',
    params: ['path:height'],
  },
  {
    method: 'get',
    path: '/middleware/status',
    summary:
      'Sync state against the node now; 503 when the populator stopped or is stuck, the node is unreachable, or the newest block is too old',
    params: [],
  },
  {
    method: 'get',
    path: '/middleware/transactions/account/{account}/count',
    summary: 'Number of transactions referencing an id',
    params: ['path:account', 'txtype'],
  },
  {
    method: 'get',
    path: '/middleware/transactions/account/{sender}/to/{receiver}',
    summary: 'Transactions from sender to receiver, newest first',
    params: ['path:sender', 'path:receiver', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/transactions/account/{account}',
    summary: 'Transactions referencing an id in any field, newest first',
    params: ['path:account', 'txtype', 'cursor', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/transactions/interval/{from}/{to}',
    summary: 'Transactions of heights from..to, newest first',
    params: ['path:from', 'path:to', 'txtype', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/transactions/rate/{from}/{to}',
    summary: 'SpendTx count and amount per UTC day strictly between two YYYYMMDD dates',
    params: ['path:from', 'path:to'],
  },
  { method: 'get', path: '/middleware/names', summary: 'All names (current state)', params: ['owner', ...PAGED] },
  {
    method: 'get',
    path: '/middleware/names/active',
    summary: 'Names active at the top',
    params: ['owner', 'reverse', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/names/reverse/{account}',
    summary: 'Active names pointing at an id',
    params: ['path:account', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/names/hash/{hash}',
    summary: 'A name by its hash (nm_)',
    params: ['path:hash'],
  },
  {
    method: 'get',
    path: '/middleware/names/auctions/active',
    summary: 'Running name auctions, each with its last bid',
    params: ['sort', 'reverse', 'length', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/names/auctions/active/count',
    summary: 'Number of running name auctions',
    params: ['sort', 'reverse', 'length', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/names/auctions/bids/account/{account}',
    summary: "An account's claims and bids in auctions, newest first, each with its auction",
    params: ['path:account', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/names/auctions/bids/{name}',
    summary: "The bids of a name's latest auction, newest first",
    params: ['path:name', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/names/auctions/{name}/info',
    summary: "A name's latest auction: its bids and its last bid",
    params: ['path:name'],
  },
  {
    method: 'get',
    path: '/middleware/names/{name}',
    summary: 'Names containing the text',
    params: ['path:name', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/oracles/list',
    summary: 'Oracle registrations, newest first',
    params: [...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/oracles/{oracle_id}',
    summary: 'Queries of an oracle with their responses (null while open)',
    params: ['path:oracle_id', ...PAGED],
  },
  { method: 'get', path: '/middleware/compilers', summary: 'Versions of the configured Sophia compiler', params: [] },
  { method: 'get', path: '/middleware/contracts/all', summary: 'Contracts, newest first', params: [...PAGED] },
  {
    method: 'get',
    path: '/middleware/contracts/calls/address/{address}',
    summary: 'Decoded calls of a contract with return type and value',
    params: ['path:address', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/contracts/transactions/address/{address}',
    summary: 'Create transaction and calls of a contract',
    params: ['path:address', ...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/contracts/transactions/creation/address/{address}',
    summary: 'The transaction that created a contract (RawTx)',
    params: ['path:address'],
  },
  {
    method: 'post',
    path: '/middleware/contracts/verify',
    summary: "Compile a source and compare it with the contract's create bytecode",
    params: [],
  },
  {
    method: 'get',
    path: '/middleware/channels/active',
    summary: 'Ids of channels without a closing transaction',
    params: [...PAGED],
  },
  {
    method: 'get',
    path: '/middleware/channels/transactions/address/{address}',
    summary: 'On-chain transactions of a channel',
    params: ['path:address', ...PAGED],
  },
  { method: 'get', path: '/middleware/api', summary: 'This document', params: [] },
];

/** openApiDocument renders OPERATIONS as an OpenAPI 3.0 document. */
export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      summary: op.summary,
      parameters: op.params.map(parameter),
      ...(op.method === 'post' ? { requestBody: verifyBody } : {}),
      responses: {
        // the node answers its /v2 and /v3 alike
        200: answer(`${op.method} ${op.path.replace(/^\/v3\//, '/v2/')}`),
        ...(op.path === '/middleware/status' ? { 503: answer('get /middleware/status', 'Unhealthy') } : {}),
        400: { $ref: '#/components/responses/Error' },
        404: { $ref: '#/components/responses/Error' },
        ...(op.cached
          ? { 502: { $ref: '#/components/responses/Error' }, 504: { $ref: '#/components/responses/Error' } }
          : {}),
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'æternity chain middleware', version },
    paths,
    components: {
      schemas: SCHEMAS,
      responses: {
        Error: {
          description: 'Error',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['reason'],
                properties: { reason: { type: 'string' }, code: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}

/** answer is a response object with the schema of the route's answer (RESPONSES must have one for every operation). */
function answer(key: string, description = 'OK'): Record<string, unknown> {
  const schema = RESPONSES[key];
  if (!schema) throw new Error(`no response schema for ${key}`);
  return { description, content: { 'application/json': { schema } } };
}

const verifyBody = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['contract_id', 'source', 'compiler'],
        properties: { contract_id: { type: 'string' }, source: { type: 'string' }, compiler: { type: 'string' } },
      },
    },
  },
};

function parameter(p: Param): Record<string, unknown> {
  if (p.startsWith('path:')) return { name: p.slice(5), in: 'path', required: true, schema: { type: 'string' } };
  switch (p) {
    case 'limit':
      return {
        name: 'limit',
        in: 'query',
        schema: { type: 'integer', minimum: 1, maximum: PAGING_DEFAULTS.maxLimit, default: PAGING_DEFAULTS.limit },
        description: `generations: at most ${GENERATIONS_PAGING.maxLimit}`,
      };
    case 'page':
      return { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } };
    case 'cursor':
      return {
        name: 'cursor',
        in: 'query',
        schema: { type: 'string', pattern: '^\\d+-\\d+-\\d+$' },
        description: 'keyset position from the X-Next-Cursor header of the previous page (not with page)',
      };
    case 'txtype':
      return {
        name: 'txtype',
        in: 'query',
        schema: { type: 'string' },
        description: 'transaction type, e.g. SpendTx (any case); tx_type is accepted too',
      };
    case 'owner':
      return { name: 'owner', in: 'query', schema: { type: 'string' }, description: 'ak_ account' };
    case 'sort':
      return {
        name: 'sort',
        in: 'query',
        schema: { type: 'string', enum: ['expiration', 'name', 'max_bid'], default: 'expiration' },
        description: 'auction end (soonest first), name, or winning bid (highest first)',
      };
    case 'int-as-string':
      return {
        name: 'int-as-string',
        in: 'query',
        schema: { type: 'boolean', default: false },
        description: "every integer of the answer as a string, as the node's /v3 writes it",
      };
    case 'length':
      return {
        name: 'length',
        in: 'query',
        schema: { type: 'integer', minimum: 1 },
        description: 'only names of this many bytes, .chain included',
      };
    default:
      return { name: 'reverse', in: 'query', schema: { type: 'boolean' } };
  }
}
