/**
 * @module A route's path with real values for its parameters, by the parameter's name and the route it is in: the
 * scale bench fills every route with its chain's hot spots (bench/scale.ts), route-plans.test.ts the /middleware routes
 * with the cases chain's ids, so both ask each route of the table without an edit per route.
 */
import { produceNameId, type AensName } from '@aeternity/aepp-sdk';
import { GENESIS_TIME } from '../../src/devnode/generator.ts';

/** RouteValues are the chain's ids and heights a route's parameters take. */
export interface RouteValues {
  readonly account: string;
  readonly contract: string;
  readonly token: string;
  readonly channel: string;
  readonly oracle: string;
  readonly name: string;
  readonly auction: string;
  readonly collection: string;
  /** a height with transactions, the `from` of a range (whose `to` is 10 heights above) */
  readonly busyHeight: number;
  /** a key block's hash, a micro block's and a transaction's */
  readonly keyBlockHash: string;
  readonly microBlock: string;
  readonly tx: string;
}

/** pathValue is the value of a path parameter, by its name and the route it is in. */
function pathValue(path: string, param: string, ids: RouteValues): string {
  const millis = GENESIS_TIME + ids.busyHeight * 180_000;
  // a rate's days (YYYYMMDD): from the genesis's to the busy height's, the widest the route allows on a short chain
  const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
  if (path.includes('/rate/')) return param === 'from' ? day(GENESIS_TIME) : day(millis);
  if (path.includes('/names/hash/')) return produceNameId(ids.name as AensName);
  if (param === 'address' && path.includes('/contracts/')) return ids.contract;
  if (param === 'address' && path.includes('/channels/')) return ids.channel;
  if (param === 'hash_or_kbi' || param === 'height' || param === 'from') return String(ids.busyHeight);
  if (param === 'to') return String(ids.busyHeight + 10);
  if (param === 'hash' && path.includes('key-blocks')) return ids.keyBlockHash;
  if (param === 'hash') return path.includes('micro-blocks') ? ids.microBlock : ids.tx;
  if (param === 'millis') return String(millis);
  if (param === 'tokenId' || param === 'templateId') return '1';
  if (param === 'oracle_id') return ids.oracle;
  if (param === 'name') return path.includes('auction') ? ids.auction : ids.name;
  if (param === 'contractId') return path.includes('aex141') ? ids.collection : ids.token;
  if (param === 'accountId' || param === 'account' || param === 'address' || param === 'sender') return ids.account;
  if (param === 'receiver' || param === 'validator') return ids.account;
  if (param !== 'id') return ids.account;
  const byResource: [string, string][] = [
    ['/names/auctions', ids.auction],
    ['/names', ids.name],
    ['/oracles', ids.oracle],
    ['/channels', ids.channel],
    ['/contracts', ids.contract],
    ['/aex9', ids.token],
    ['/aex141', ids.collection],
  ];
  return byResource.find(([prefix]) => path.startsWith(prefix))?.[1] ?? ids.account;
}

/** filledPath is a route's path (`/names/{name}`) with its parameters' values. */
export function filledPath(path: string, ids: RouteValues): string {
  return path.replace(/\{([\w-]+)\}/g, (_, param: string) => encodeURIComponent(pathValue(path, param, ids)));
}
