/**
 * @module A chain whose registrar contract opens name auctions (`AENS.claim`, an internal call of a ContractCallTx)
 * that an account's NameClaimTx outbids: one ended by the top, one in the same micro block (ended too), one running
 * at the top. Mined on the harness's devnode; names of 9 to 12 characters (480 heights of auction from Ceres). Every
 * names-contract-auctions builds it (startContractAuctions, with the auctions a contract bids in, ContractBids),
 * loads it twice, has `-v --full` verify its fresh load, then stores that load as an earlier build did and compares
 * its repair (migration 1164, support/claims-repair.ts) with it. So with the generated chain whose registrar bids in
 * the accounts' auctions (startRegistrarBids): balances-contract-bids has `-v --full` verify its load, then repairs it.
 */
import { expect } from 'chai';
import { nameId } from '../../../../src/chain/derived-ids.ts';
import type { Json } from '../../../../src/chain/json.ts';
import { keyPairFromSeed, type KeyPair } from '../../../../src/devnode/keys.ts';
import { minimumNameFee } from '../../../../src/chain/aens.ts';
import { mineGeneration, startHarness, type Harness } from './harness.ts';
import { deployRegistrar } from './registrar.ts';

/** The names of the auctions: ended (outbid a generation later), outbid in the same micro block, running at the top. */
export interface AuctionNames {
  readonly ended: string;
  readonly same: string;
  readonly running: string;
}

/** What the chain holds: the bidding account, the registrar's account (`ak_`), each name's bids in chain order. */
export interface ContractAuctions {
  readonly bidder: KeyPair;
  readonly registrar: string;
  readonly bids: ReadonlyMap<string, readonly string[]>;
}

/** The chain's names: 9 to 12 characters go to auction for 480 heights from Ceres (5 to 8: 960, twice the chain). */
export const AUCTION_NAMES: AuctionNames = {
  ended: 'endedcont.chain',
  same: 'samemcont.chain',
  running: 'runngcont.chain',
};

/** The names of the contract's bids: 9 to 12 characters, as AUCTION_NAMES'. */
export const BID_NAMES = { outbid: 'outbidcon.chain', won: 'wonbycont.chain', alone: 'alonecont.chain' } as const;

/** A bid of the contract-bids auctions: its fee, transaction hash and height. */
export interface Bid {
  readonly fee: bigint;
  readonly hash: string;
  readonly height: number;
}

/**
 * The auctions a contract bids in (a registrar of their own): an account's claim the contract outbids and another
 * account outbids again (BID_NAMES.outbid), one the contract outbids an account in and wins (won), one it opens alone
 * and wins (alone). `bids` by their parts: 'opener', 'contract', 'bidder' (outbid); 'alone'; 'opener won',
 * 'contract won'. `ends`: each auction's end, by name.
 */
export interface ContractBids {
  readonly opener: KeyPair;
  readonly bidder: KeyPair;
  readonly registrar: string;
  readonly bids: ReadonlyMap<string, Bid>;
  readonly ends: ReadonlyMap<string, number>;
}

/**
 * startContractAuctions starts a harness (the caller closes it) and mines the chain on its devnode; `withBids`: the
 * contract-bids auctions too (mineContractBids), ended by the top as the ended ones, for the file that checks both.
 */
export async function startContractAuctions(
  withBids = false,
): Promise<{ h: Harness; auctions: ContractAuctions; contractBids: ContractBids | undefined }> {
  const h = await startHarness(3, 'contract-auctions', {}, { REWARD_RULES: 'devnode' });
  try {
    return { h, ...(await mineContractAuctions(h, AUCTION_NAMES, 97, withBids)) };
  } catch (err) {
    await h.close();
    throw err;
  }
}

/** startRegistrarBids starts a harness (the caller closes it) on the generated chain whose registrar bids. */
export const startRegistrarBids = (): Promise<Harness> =>
  startHarness(
    40,
    'balances-registrar-bids',
    { registrar: true, registrarBids: true, tokenShare: 0.5, txsPerMicroBlock: 8 },
    { REWARD_RULES: 'devnode' },
  );

/** mineContractAuctions mines the chain on `h`'s devnode; `seed` makes the bidding account. */
async function mineContractAuctions(
  h: Harness,
  names: AuctionNames,
  seed: number,
  withBids: boolean,
): Promise<{ auctions: ContractAuctions; contractBids: ContractBids | undefined }> {
  const chain = h.devnode.chain;
  const bidder = keyPairFromSeed(Buffer.alloc(32, seed));
  const registrar = await deployRegistrar(h, [bidder]);
  const bids = new Map<string, string[]>();
  const record = (name: string, hash: string): void => void bids.set(name, [...(bids.get(name) ?? []), hash]);
  const claim = (name: string, fee: bigint): void => record(name, registrar.claim(bidder, name, fee));
  const contractClaim = (name: string, fee: bigint): void => record(name, registrar.call('claim', [name], fee));
  // the contract opens an auction, an account outbids it in the next generation: ended by the top
  contractClaim(names.ended, minimumNameFee(names.ended));
  await mineGeneration(h);
  claim(names.ended, minimumNameFee(names.ended) * 2n);
  await mineGeneration(h);
  // the same in one micro block
  contractClaim(names.same, minimumNameFee(names.same));
  claim(names.same, minimumNameFee(names.same) * 2n);
  await mineGeneration(h);
  const contractBids = withBids ? await mineContractBids(h) : undefined;
  const ends = Math.max(
    ...[names.ended, names.same].map((n) => chain.state.auctions.get(nameId(n))!.ends),
    ...(contractBids?.ends.values() ?? []),
  );
  while (chain.height < ends + 3) await h.devnode.mineKeyBlock();
  // one running at the top
  contractClaim(names.running, minimumNameFee(names.running));
  await mineGeneration(h);
  claim(names.running, minimumNameFee(names.running) * 2n);
  await mineGeneration(h);
  return { auctions: { bidder, registrar: registrar.account, bids }, contractBids };
}

/** mineContractBids deploys a registrar of its own and mines ContractBids' auctions, a bid a generation. */
async function mineContractBids(h: Harness): Promise<ContractBids> {
  const [opener, bidder] = [95, 96].map((n) => keyPairFromSeed(Buffer.alloc(32, n))) as [KeyPair, KeyPair];
  const r = await deployRegistrar(h, [opener, bidder]);
  const bids = new Map<string, Bid>();
  const bid = async (key: string, fee: bigint, send: (fee: bigint) => string): Promise<void> => {
    const hash = send(fee);
    bids.set(key, { fee, hash, height: await mineGeneration(h) });
  };
  const contractBid = (name: string) => (fee: bigint) => r.call('claim', [name], fee);
  const { outbid, won, alone } = BID_NAMES;
  // an account opens an auction, the contract outbids it, another account outbids the contract
  const f0 = minimumNameFee(outbid);
  await bid('opener', f0, (fee) => r.claim(opener, outbid, fee));
  // the contract opens an auction alone, and wins it
  await bid('alone', minimumNameFee(alone), contractBid(alone));
  await bid('contract', f0 * 2n, contractBid(outbid));
  await bid('bidder', f0 * 4n, (fee) => r.claim(bidder, outbid, fee));
  // an account opens an auction, the contract outbids it and wins
  const g0 = minimumNameFee(won);
  await bid('opener won', g0, (fee) => r.claim(opener, won, fee));
  await bid('contract won', g0 * 2n, contractBid(won));
  const ends = new Map([outbid, alone, won].map((n) => [n, h.devnode.chain.state.auctions.get(nameId(n))!.ends]));
  return { opener, bidder, registrar: r.account, bids, ends };
}

type Obj = { [key: string]: Json };

/** A claim or bid of a name: its transaction and its bidder. */
export interface Claim {
  readonly hash: string;
  readonly bidder: string;
}

/** servedClaims are a name's claims and bids as `get` serves them at `path` (a `/claims` route), in chain order. */
export async function servedClaims(
  get: (path: string) => Promise<{ status: number; body: Obj }>,
  path: string,
): Promise<Claim[]> {
  const { status, body } = await get(`${path}?direction=forward&limit=100`);
  expect(status, path).to.equal(200);
  return (body.data as Obj[]).map((c) => ({
    hash: String(c.source_tx_hash),
    bidder: String((c.tx as Obj).account_id),
  }));
}

/** chainClaims are a name's claims and bids as mined: the registrar's first, then the account's. */
export const chainClaims = (a: ContractAuctions, name: string): Claim[] =>
  a.bids.get(name)!.map((hash, i) => ({ hash, bidder: i === 0 ? a.registrar : a.bidder.address }));
