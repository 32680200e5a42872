/**
 * @module The node's external API (port 3013) over the devnode chain: blocks, transactions, accounts, oracles,
 * names, under /v2 and /v3 alike (the node's handlers are the same for both; its specs differ in /v2's
 * `/blocks/top` and in /v3's status, see statusBody).
 */
import { isEncoded, reprefix, type Prefix } from '../../chain/encoding.ts';
import { readNodeHeight } from '../../chain/node-height.ts';
import { keyBlockHash, keyBlockJson } from '../store/blocks.ts';
import type { Chain, KeyBlock, MicroBlock } from '../chain.ts';
import type { AccountEntry } from '../store/account-trail.ts';
import { HttpError, ok, validationError, type Reply, type Route, type RouteRequest } from './http.ts';
import { decodeErrorCode, nameHash, nameValidationError } from '../ids.ts';
import { isHeld, nameStatus, nonceAccount } from '../rules/apply.ts';
import { submitEncodedTx } from './submit.ts';
import { nodeInfoRoutes } from './node-info.ts';
import * as view from './views.ts';

/** ApiVersion is the base path of one of the node's two HTTP APIs: its swagger 2 (/v2) and its OpenAPI 3 (/v3). */
export type ApiVersion = 'v2' | 'v3';

/** DevnodeInfo is what the status endpoint and the mining mode need besides the chain. */
export interface DevnodeInfo {
  readonly mine: boolean;
  readonly startedAt: number;
  readonly version: string;
}

/**
 * NODE_API_VERSION is the node release whose /v3 the devnode speaks (aeternity master's oas3.yaml): /v3/status
 * reports it, as the SDK accepts 7.1.0 ≤ v < 8.0.0 only, with the devnode named in its build metadata.
 */
export const NODE_API_VERSION = '7.3.0';

/** MAX_HEIGHT is each spec's maximum of a height: /v2's 2^64 - 1, /v3's 18446744073709552000 as its YAML writes it. */
const MAX_HEIGHT: Readonly<Record<ApiVersion, bigint>> = { v2: 2n ** 64n - 1n, v3: 18446744073709552000n };

/**
 * height reads a height parameter as the node's validator does (readNodeHeight, then the spec's maximum), as an
 * index of the chain's key blocks: past the top it names none (the handler's 404). /v2 refuses a bad one with a 400
 * `validation_error`; /v3's router fails on it with an empty 500 (a recorded 7.2.2 does, for `-1`, `abc`, `1.5`,
 * `0x10` and 10^23, while 2^64 passes on to the 404).
 */
function height(req: RouteRequest, version: ApiVersion, index = 0): number {
  const read = readNodeHeight(req.params[index]!);
  if ('error' in read || read.height > MAX_HEIGHT[version]) {
    if (version === 'v3') throw new HttpError(500, undefined);
    throw 'error' in read
      ? validationError('height', read.error, read.data)
      : validationError('height', 'not_in_range', read.height);
  }
  return read.height <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(read.height) : Number.MAX_SAFE_INTEGER;
}

/**
 * Refused says how the node's handler refuses an id it cannot decode: its 400's `reason`, and whether it adds
 * safe_decode's error as `error_code` (most handlers do since node 6.13; a few never did).
 */
interface Refused {
  readonly reason: string;
  readonly coded: boolean;
}

/** INVALID_HASH is the common refusal of a hash parameter, with the error code. */
const INVALID_HASH: Refused = { reason: 'Invalid hash', coded: true };

/** refuse is the node's 400 for `value`, no valid id of the `prefixes`. */
function refuse(value: string, prefixes: readonly Prefix[], refused: Refused): HttpError {
  const code = decodeErrorCode(value, prefixes) ?? 'invalid_encoding';
  return new HttpError(400, refused.reason, refused.coded ? { error_code: code } : {});
}

/**
 * byHash is the object the hash parameter names in `map` (undefined: none), or the node's 400 when the parameter
 * is no valid hash of the `prefixes`. A hash the map holds is valid (the chain keys its maps by the hashes it made),
 * so only a miss pays for checking the encoding and its checksum: most requests name a known object, and checking
 * each one was a tenth of the devnode's CPU per answer.
 */
function byHash<T>(
  map: { get(key: string): T | undefined },
  req: RouteRequest,
  prefixes: Prefix[],
  refused = INVALID_HASH,
): T | undefined {
  const value = req.params[0]!;
  const found = map.get(value);
  if (found !== undefined && prefixes.includes(value.slice(0, 2) as Prefix)) return found;
  if (!isEncoded(value, prefixes)) throw refuse(value, prefixes, refused);
  return found;
}

/**
 * notFound is the node's 404 for an object it does not hold: `reason`, and the handler's `error_code` when it gives
 * one (the lookup's error, e.g. `not_found`; GetTransactionByHash, GetAccountByPubkey and a few more give none).
 */
function notFound(reason: string, code?: string): HttpError {
  return new HttpError(404, reason, code === undefined ? {} : { error_code: code });
}

function keyBlock(chain: Chain, req: RouteRequest): KeyBlock {
  // GetKeyBlockByHash is one of the handlers that give no error code (node 6 said "Block not fond")
  const block = byHash(chain.blocks, req, ['kh'], { reason: 'Invalid hash', coded: false });
  if (!block || block.kind !== 'key') throw notFound('Block not found');
  return block;
}

/** microBlock is the micro block the hash names; `coded`: whether the handler's 404 gives the lookup's error code. */
function microBlock(chain: Chain, req: RouteRequest, refused = INVALID_HASH, coded = true): MicroBlock {
  const block = byHash(chain.blocks, req, ['mh'], refused);
  if (!block || block.kind !== 'micro') throw notFound('Block not found', coded ? 'block_not_found' : undefined);
  return block;
}

function publicKey(req: RouteRequest, prefixes: Prefix[], coded = true): string {
  const value = req.params[0]!;
  if (!isEncoded(value, prefixes)) throw refuse(value, prefixes, { reason: 'Invalid public key', coded });
  return value;
}

/**
 * statusBody is the node's Status. /v2 says `devnode-<version>` as it always did; /v3, which the SDK reads and
 * checks, says the node version whose API the devnode speaks, with `+devnode.<version>`, and `node_revision`
 * says what it is.
 */
function statusBody(chain: Chain, info: DevnodeInfo, version: ApiVersion): Reply {
  return ok({
    genesis_key_block_hash: chain.keyBlocks[0]!.hash,
    solutions: 0,
    difficulty: 1,
    hashrate: 0,
    syncing: false,
    sync_progress: 100,
    listening: true,
    protocols: chain.schedule.statusProtocols(),
    node_version: version === 'v2' ? `devnode-${info.version}` : `${NODE_API_VERSION}+devnode.${info.version}`,
    node_revision: 'devnode (not a real æternity node)',
    peer_count: 0,
    peer_connections: { inbound: 0, outbound: 0 },
    pending_transactions_count: chain.mempool.length,
    network_id: chain.options.networkId,
    peer_pubkey: reprefix(chain.options.miner.address, 'pp'),
    top_key_block_hash: chain.top.hash,
    top_block_height: chain.height,
    uptime: `${Math.floor((Date.now() - info.startedAt) / 1000)}s`,
  });
}

/**
 * validName is a name the lookups accept: the registrar's rules, with `.test` names too (a recorded 7.2.2 answers
 * `x.test` 404 "Name not found", not a registrar error).
 */
function validName(name: string): string {
  const invalid = nameValidationError(name, LOOKUP_REGISTRARS);
  if (invalid) throw new HttpError(400, `Name validation failed with a reason: ${invalid}`, { error_code: invalid });
  return name;
}

const LOOKUP_REGISTRARS = ['chain', 'test'];

function nameBody(chain: Chain, id: string): Reply {
  // a name in auction is not in the names tree yet: the node says it is not found
  const entry = chain.state.names.get(id);
  const status = nameStatus(entry, chain.height);
  if (status === 'revoked') throw notFound('Name revoked', 'name_revoked');
  if (status === 'gone') throw notFound('Name not found', 'name_not_found');
  return ok(view.nameJson(entry!));
}

function queriesBody(chain: Chain, req: RouteRequest): Reply {
  const id = publicKey(req, ['ok']);
  const oracle = chain.state.oracles.get(id);
  const type = req.query.get('type') ?? 'all';
  const limitText = req.query.get('limit') ?? '20';
  if (!['open', 'closed', 'all'].includes(type)) throw validationError('type', 'not_in_enum', type);
  const limit = readNodeHeight(limitText);
  if ('error' in limit) throw validationError('limit', limit.error, limit.data);
  if (limit.height < 1n || limit.height > 1000n) throw validationError('limit', 'not_in_range', limit.height);
  let queries = (oracle?.queryIds ?? []).map((q) => chain.state.queries.get(q)).filter((q) => q !== undefined);
  const from = req.query.get('from');
  if (from)
    queries = queries.slice(
      Math.max(
        0,
        queries.findIndex((q) => q.id === from),
      ),
    );
  if (type !== 'all') queries = queries.filter((q) => (q.response === undefined) === (type === 'open'));
  return ok({ oracle_queries: queries.slice(0, Number(limitText)).map(view.queryJson) });
}

/**
 * accountBody is an account as a state holds it (its entry and its contract's: Chain.accountAfter), asked by its `ak_`
 * or its `ct_` form: the node answers a contract's account (a plain account's too) under its `ak_` id, payable as the
 * contract's code says.
 */
function accountBody(entry: AccountEntry, id: string): Reply {
  if (!entry.account) throw notFound('Account not found');
  return ok(view.accountJson(reprefix(id, 'ak'), entry.account, entry.contract));
}

function txInfoBody(chain: Chain, req: RouteRequest): Reply {
  // read by the node's helpers (api_decode), which name the parameter and give no error code
  const record = byHash(chain.txs, req, ['th'], { reason: 'Invalid hash: hash', coded: false });
  if (!record) throw notFound('Transaction not found');
  if (record.blockHeight < 0) throw notFound('Tx not mined');
  if (!record.gaInfo && !record.callInfo) throw new HttpError(400, 'Tx has no info');
  return ok(view.txInfoBody(record));
}

/** topBlockRoute is /v2's `/blocks/top` (the key block or micro block header at the top, wrapped by kind). */
function topBlockRoute(chain: Chain): Route {
  return {
    method: 'GET',
    path: '/v2/blocks/top',
    handler: () => {
      const micro = chain.top.micro.at(-1);
      return ok(
        micro ? `{"micro_block":${view.microHeaderBody(micro)}}` : `{"key_block":${view.keyBlockBody(chain.top)}}`,
      );
    },
  };
}

/** externalRoutes are the node's external endpoints the devnode serves, under `/<version>`. */
export function externalRoutes(chain: Chain, info: DevnodeInfo, version: ApiVersion): Route[] {
  const base = `/${version}`;
  const generation = (kb: KeyBlock | undefined, reason: string): Reply => {
    if (!kb) throw notFound(reason);
    return ok(view.generationBody(kb));
  };
  return [
    { method: 'GET', path: `${base}/status`, handler: () => statusBody(chain, info, version) },
    { method: 'GET', path: `${base}/key-blocks/current`, handler: () => ok(view.keyBlockBody(chain.top)) },
    { method: 'GET', path: `${base}/key-blocks/current/hash`, handler: () => ok({ hash: chain.top.hash }) },
    { method: 'GET', path: `${base}/key-blocks/current/height`, handler: () => ok({ height: chain.height }) },
    {
      method: 'GET',
      path: `${base}/key-blocks/pending`,
      handler: () => {
        const candidate = chain.candidate();
        return ok(keyBlockJson(candidate, keyBlockHash(candidate)));
      },
    },
    {
      method: 'GET',
      path: `${base}/key-blocks/hash/:hash`,
      handler: (req) => ok(view.keyBlockBody(keyBlock(chain, req))),
    },
    {
      method: 'GET',
      path: `${base}/key-blocks/height/:height`,
      handler: (req) => {
        const kb = chain.keyBlocks[height(req, version)];
        if (!kb) throw notFound('Block not found', 'chain_too_short');
        return ok(view.keyBlockBody(kb));
      },
    },
    {
      method: 'GET',
      path: `${base}/micro-blocks/hash/:hash/header`,
      handler: (req) => ok(view.microHeaderBody(microBlock(chain, req))),
    },
    {
      method: 'GET',
      path: `${base}/micro-blocks/hash/:hash/transactions`,
      handler: (req) => ok(view.microTxsBody(microBlock(chain, req))),
    },
    {
      method: 'GET',
      path: `${base}/micro-blocks/hash/:hash/transactions/count`,
      handler: (req) => ok({ count: microBlock(chain, req).txs.length }),
    },
    {
      method: 'GET',
      path: `${base}/micro-blocks/hash/:hash/transactions/index/:index`,
      handler: (req) => {
        // the validator reads the index first: an integer (sign allowed), minimum 1
        const index = readNodeHeight(req.params[1]!, 1n);
        if ('error' in index) throw validationError('index', index.error, index.data);
        const block = microBlock(chain, req, { reason: 'Invalid hash or index', coded: false }, false);
        const tx = index.height <= BigInt(block.txs.length) ? block.txs[Number(index.height) - 1] : undefined;
        // an index past the block's transactions is a bad request to the node, not a miss
        if (!tx) throw new HttpError(400, 'Invalid hash or index');
        return ok(view.txJson(tx));
      },
    },
    { method: 'GET', path: `${base}/generations/current`, handler: () => generation(chain.top, 'Block not found') },
    {
      method: 'GET',
      path: `${base}/generations/hash/:hash`,
      handler: (req) => {
        const block = byHash(chain.blocks, req, ['kh']);
        if (!block || block.kind !== 'key') throw new HttpError(400, 'Hash not on main chain');
        return generation(block, 'Block not found');
      },
    },
    {
      method: 'GET',
      path: `${base}/generations/height/:height`,
      handler: (req) => generation(chain.keyBlocks[height(req, version)], 'Chain too short'),
    },
    {
      method: 'GET',
      path: `${base}/headers/top`,
      handler: () => {
        const micro = chain.top.micro.at(-1);
        return ok(micro ? view.microHeaderBody(micro) : view.keyBlockBody(chain.top));
      },
    },
    ...(version === 'v2' ? [topBlockRoute(chain)] : []),
    ...nodeInfoRoutes(chain, base),
    {
      method: 'GET',
      path: `${base}/transactions/:hash`,
      handler: (req) => {
        const record = byHash(chain.txs, req, ['th']);
        if (!record) throw notFound('Transaction not found');
        return ok(view.txJson(record));
      },
    },
    { method: 'GET', path: `${base}/transactions/:hash/info`, handler: (req) => txInfoBody(chain, req) },
    {
      method: 'POST',
      path: `${base}/transactions`,
      handler: (req) => ok({ tx_hash: submitEncodedTx(chain, req.body).hash }),
    },
    {
      method: 'GET',
      path: `${base}/accounts/:id`,
      handler: (req) => {
        const id = publicKey(req, ['ak', 'ct']);
        const { accounts, contracts } = chain.state;
        return accountBody(
          { account: accounts.get(reprefix(id, 'ak')), contract: contracts.get(reprefix(id, 'ct')) },
          id,
        );
      },
    },
    {
      method: 'GET',
      path: `${base}/accounts/:id/height/:height`,
      handler: (req) => {
        const id = publicKey(req, ['ak', 'ct']);
        const kb = chain.keyBlocks[height(req, version, 1)];
        if (!kb) throw notFound('Height not available', 'chain_too_short');
        return accountBody(chain.accountAfter(kb.hash, reprefix(id, 'ak'))!, id);
      },
    },
    {
      method: 'GET',
      path: `${base}/accounts/:id/hash/:hash`,
      handler: (req) => {
        const id = publicKey(req, ['ak', 'ct']);
        const hash = req.params[1]!;
        const illegal = decodeErrorCode(hash, ['kh', 'mh']);
        if (illegal) throw new HttpError(400, `Illegal hash: ${illegal}`);
        const entry = chain.accountAfter(hash, reprefix(id, 'ak'));
        if (!entry) throw notFound('Hash not available', 'no_state_trees');
        return accountBody(entry, id);
      },
    },
    {
      method: 'GET',
      path: `${base}/accounts/:id/next-nonce`,
      handler: (req) => {
        // the devnode's mempool takes no nonce gaps, so both of the node's strategies give the same nonce
        const strategy = req.query.get('strategy') ?? 'max';
        if (strategy !== 'max' && strategy !== 'continuity') throw validationError('strategy', 'not_in_enum', strategy);
        const account = chain.pending.accounts.get(publicKey(req, ['ak']));
        if (!account) throw notFound('Account not found', 'account_not_found');
        // a generalized account signs through GAMetaTxs, whose inner transactions have nonce 0 (aec_next_nonce)
        return ok({ next_nonce: account.ga ? 0 : account.nonce + 1 });
      },
    },
    {
      method: 'GET',
      path: `${base}/accounts/:id/transactions/pending`,
      handler: (req) => {
        const id = publicKey(req, ['ak']);
        if (!chain.pending.accounts.get(id)) throw notFound('Account not found');
        return ok(view.txListJson(chain.mempool.filter((r) => nonceAccount(r.tx) === id)));
      },
    },
    {
      method: 'GET',
      path: `${base}/oracles/:id`,
      handler: (req) => {
        const oracle = chain.state.oracles.get(publicKey(req, ['ok']));
        if (!oracle || !isHeld(oracle.expires, chain.height)) throw notFound('Oracle not found', 'not_found');
        return ok(view.oracleJson(oracle));
      },
    },
    { method: 'GET', path: `${base}/oracles/:id/queries`, handler: (req) => queriesBody(chain, req) },
    {
      method: 'GET',
      path: `${base}/oracles/:id/queries/:query`,
      handler: (req) => {
        const [oracleId = '', queryId = ''] = req.params;
        const code = decodeErrorCode(oracleId, ['ok']) ?? decodeErrorCode(queryId, ['oq']);
        if (code) throw new HttpError(400, 'Invalid public key or query ID', { error_code: code });
        const query = chain.state.queries.get(queryId);
        if (!query || query.oracleId !== oracleId) throw notFound('Query not found', 'not_found');
        return ok(view.queryJson(query));
      },
    },
    {
      method: 'GET',
      path: `${base}/names/:name`,
      handler: (req) => nameBody(chain, nameHash(validName(req.params[0]!))),
    },
    {
      method: 'GET',
      path: `${base}/names/hash/:hash`,
      handler: (req) => {
        if (!isEncoded(req.params[0], ['nm']))
          throw refuse(req.params[0]!, ['nm'], { reason: 'Invalid name hash', coded: true });
        return nameBody(chain, req.params[0]!);
      },
    },
    {
      method: 'GET',
      path: `${base}/auctions/:name`,
      handler: (req) => {
        const auction = chain.state.auctions.get(nameHash(validName(req.params[0]!)));
        if (!auction) throw notFound('Name not found', 'name_not_found');
        return ok(view.auctionJson(auction));
      },
    },
    {
      method: 'GET',
      path: `${base}/contracts/:id`,
      handler: (req) => {
        // GetContract gives no error code for a key it cannot decode (GetContractCode does), but one for a miss
        const contract = chain.state.contracts.get(publicKey(req, ['ct'], false));
        if (!contract) throw notFound('Contract not found', 'not_present');
        return ok(view.contractJson(contract));
      },
    },
    {
      method: 'GET',
      path: `${base}/contracts/:id/code`,
      handler: (req) => {
        const contract = chain.state.contracts.get(publicKey(req, ['ct']));
        if (!contract) throw notFound('Contract not found', 'not_present');
        return ok({ bytecode: contract.code });
      },
    },
    {
      method: 'GET',
      path: `${base}/channels/:id`,
      handler: (req) => {
        const channel = chain.state.channels.get(publicKey(req, ['ch']));
        if (!channel) throw notFound('Channel not found', 'not_found');
        return ok(view.channelJson(channel));
      },
    },
    {
      method: 'GET',
      path: `${base}/peers/pubkey`,
      handler: () => ok({ pubkey: reprefix(chain.options.miner.address, 'pp') }),
    },
  ];
}

/** apiDoc is the small document `GET /api` returns: the devnode lists its /v2 paths instead of the full swagger. */
export function apiDoc(allRoutes: readonly Route[], info: DevnodeInfo): Reply {
  const routes = allRoutes.filter((r) => r.path.startsWith('/v2/'));
  return ok({
    swagger: '2.0',
    info: { title: 'æternity devnode (development node, not a real æternity node)', version: info.version },
    basePath: '/v2',
    paths: Object.fromEntries(
      routes.map((r) => [r.path.replace(/^\/v2/, '').replace(/:([a-z_]+)/g, '{$1}'), { [r.method.toLowerCase()]: {} }]),
    ),
  });
}
