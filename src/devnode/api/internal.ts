/** @module The node's internal API (port 3113): mining submissions, mempool, debug helpers, builders and the fork control. */
import { isEncoded } from '../../chain/encoding.ts';
import { isJsonObject, toBigInt, type Json } from '../../chain/json.ts';
import type { KeyHeader } from '../store/blocks.ts';
import { builderRoutes } from './builders.ts';
import type { Chain } from '../chain.ts';
import { HttpError, ok, validationError, type Route, type RouteRequest } from './http.ts';
import { commitmentId, nameValidationError } from '../ids.ts';
import { nodeDebugRoutes } from './node-debug.ts';
import { tokenSupplyRoutes } from './token-supply.ts';
import { TxRejected } from '../rules/apply.ts';
import { txListJson } from './views.ts';

const UINT64_MAX = (1n << 64n) - 1n;
const isUInt = (v: Json | undefined, max: bigint): boolean => {
  if (typeof v !== 'number' && typeof v !== 'bigint') return false;
  if (typeof v === 'number' && !Number.isSafeInteger(v)) return false;
  const b = BigInt(v);
  return b >= 0n && b <= max;
};

/**
 * parseMinedKeyBlock checks the shape of a POSTed key block (every KeyBlock field, `nonce` a
 * uint64, `pow` 42 uint32s, `info` a cb_). The devnode does NOT verify the proof of work: any
 * nonce and pow of the right shape is accepted.
 */
function parseMinedKeyBlock(value: Json | undefined): KeyHeader | undefined {
  if (!isJsonObject(value)) return undefined;
  const v = value;
  const hashes = ['prev_hash', 'prev_key_hash', 'state_hash', 'miner', 'beneficiary'] as const;
  const prefixes = {
    prev_hash: ['kh', 'mh'],
    prev_key_hash: ['kh'],
    state_hash: ['bs'],
    miner: ['ak'],
    beneficiary: ['ak'],
  } as const;
  if (hashes.some((k) => !isEncoded(v[k], [...prefixes[k]]))) return undefined;
  if (!isEncoded(v.info, ['cb']) || !isUInt(v.nonce, UINT64_MAX) || !isUInt(v.height, UINT64_MAX)) return undefined;
  if (!isUInt(v.time, UINT64_MAX) || !isUInt(v.target, 0xffffffffn) || !isUInt(v.version, 0xffffffffn))
    return undefined;
  if (!Array.isArray(v.pow) || v.pow.length !== 42 || v.pow.some((p) => !isUInt(p, 0xffffffffn))) return undefined;
  return {
    height: Number(v.height),
    prevHash: v.prev_hash as string,
    prevKeyHash: v.prev_key_hash as string,
    stateHash: v.state_hash as string,
    miner: v.miner as string,
    beneficiary: v.beneficiary as string,
    target: Number(v.target),
    pow: v.pow.map(Number),
    nonce: toBigInt(v.nonce),
    time: Number(v.time),
    version: Number(v.version),
    info: v.info as string,
  };
}

function commitment(req: RouteRequest) {
  const name = req.query.get('name');
  const salt = req.query.get('salt');
  if (name === null) throw validationError('name', 'missing_required_property');
  if (salt === null) throw validationError('salt', 'missing_required_property');
  if (!/^\d+$/.test(salt)) throw validationError('salt', 'wrong_type', salt);
  const invalid = nameValidationError(name);
  if (invalid) throw new HttpError(400, `Name validation failed with a reason: ${invalid}`);
  return ok({ commitment_id: commitmentId(name, BigInt(salt)) });
}

/** internalRoutes are the internal endpoints, including the devnode's own `/v2/debug/dev/*` controls. */
export function internalRoutes(chain: Chain): Route[] {
  return [
    {
      method: 'POST',
      path: '/v2/key-blocks',
      handler: (req) => {
        const header = parseMinedKeyBlock(req.body);
        if (!header) throw new HttpError(400, 'Invalid block');
        try {
          chain.acceptKeyBlock(header);
        } catch (err) {
          if (err instanceof TxRejected) throw new HttpError(400, 'Block rejected');
          throw err;
        }
        return ok({});
      },
    },
    { method: 'GET', path: '/v2/debug/transactions/pending', handler: () => ok(txListJson(chain.mempool)) },
    {
      method: 'GET',
      path: '/v2/debug/accounts/beneficiary',
      handler: () => ok({ pub_key: chain.options.beneficiary }),
    },
    { method: 'GET', path: '/v2/debug/accounts/node', handler: () => ok({ pub_key: chain.options.miner.address }) },
    { method: 'GET', path: '/v2/debug/names/commitment-id', handler: commitment },
    {
      method: 'POST',
      path: '/v2/debug/dev/fork',
      handler: (req) => {
        const depth = isJsonObject(req.body) ? req.body.depth : undefined;
        if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 1 || depth > chain.height) {
          throw validationError('depth', 'not_in_range', depth ?? null);
        }
        chain.fork(depth);
        return ok({ height: chain.height, top_key_block_hash: chain.top.hash });
      },
    },
    {
      method: 'POST',
      path: '/v2/debug/dev/mine',
      handler: (req) => {
        const count = isJsonObject(req.body) && req.body.key_blocks !== undefined ? req.body.key_blocks : 1;
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 1000)
          throw validationError('key_blocks', 'not_in_range', count);
        if (count === 0) chain.mineMicroBlock();
        for (let i = 0; i < count; i++) chain.mineKeyBlock();
        return ok({ height: chain.height, top_key_block_hash: chain.top.hash });
      },
    },
    ...builderRoutes(chain),
    ...nodeDebugRoutes(chain),
    ...tokenSupplyRoutes(chain),
  ];
}
