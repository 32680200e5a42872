/**
 * @module AEX-9 balances against the contracts' own state (issue 58), with the middleware's default configuration
 * (no DEX_WRAPPED_AE naming the devnode's wrapped AE): every balance /mdw/v3 serves equals what the token's
 * `balances()` answers in a dry-run through the SDK against the devnode, none is negative, and the SDK reads every
 * AEX-9 answer. On generated chains of two seeds, a mainnet-like one and `v3check`; then, on the second (one setup
 * less: its generated tokens stay checked as tokens are added), tokens whose events cannot explain their balances: a
 * mint without an event, a token that burns what it held at creation, and forks across a wrapped AE's deposit and
 * across a token's read of its state. The chains are short, one transaction in four a token's
 * (TOKEN_SHARE): `v3check`'s 30 generations hold 87 token transactions, 6 DEX pairs and 6 wrapped-AE depositors, about
 * what issue 58's chain of that seed held in 120 generations of the default mix (101, 7 and 7), in a quarter of its
 * transactions.
 */
import { expect } from 'chai';
import { type Encoded } from '@aeternity/aepp-sdk';
import { address, option } from '../../../src/chain/fate.ts';
import type { FateValue } from '../../../src/chain/fate.ts';
import { callTx, createTx } from '../../../src/devnode/contracts/txs.ts';
import type { ContractKind } from '../../../src/devnode/contracts/standards.ts';
import { signBuilt } from '../../../src/devnode/generator.ts';
import { contractId } from '../../../src/devnode/ids.ts';
import { waitFor } from '../../support/wait.ts';
import { deriveKey, parseSecretKey, type KeyPair } from '../../../src/devnode/keys.ts';
import type { Json } from '../../../src/chain/json.ts';
import { dryRunBalances } from '../../support/aex9-dry-run.ts';
import { aex9Tokens, wrappedAe } from '../../support/aex9-truth.ts';
import { startV3, walkPages, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };
type Holdings = Map<string, bigint>;

/** holdings keeps the positive balances, sorted by account. */
const holdings = (entries: Iterable<readonly [string, bigint]>): Holdings =>
  new Map([...entries].filter(([, v]) => v > 0n).sort(([a], [b]) => (a < b ? -1 : 1)));

/** the contract's own answer: `balances()` dry-run through the SDK on the devnode's top */
async function contractBalances(v3: V3UnderTest, id: string): Promise<Holdings> {
  return holdings(await dryRunBalances(v3.devnode.externalUrl, id));
}

/** what the API serves of a token's holders, raw and through the SDK (which must agree) */
async function servedBalances(v3: V3UnderTest, id: string): Promise<Holdings> {
  const raw = await v3.walk(`/mdw/v3/aex9/${id}/balances?limit=100`);
  const negative = raw.filter((item) => BigInt(item.amount as bigint) < 0n);
  expect(negative, `${id}: negative balances`).to.deep.equal([]);
  const viaSdk = await walkPages<{ accountId: string; amount: bigint }>(
    await v3.mdw.getAex9ContractBalances(id as Encoded.ContractAddress, { limit: 100 }),
  );
  const served = holdings(raw.map((i) => [String(i.account_id), BigInt(i.amount as bigint)] as const));
  expect(holdings(viaSdk.map((i) => [i.accountId, i.amount] as const)), `${id} through the SDK`).to.deep.equal(served);
  return served;
}

/**
 * everyTokenExact: every AEX-9 token of the chain is served with its contract's balances, each holder's list of
 * balances (through the SDK) holds the same amounts and nothing negative, and the SDK reads every token.
 */
async function everyTokenExact(v3: V3UnderTest): Promise<Map<string, Holdings>> {
  await v3.synced();
  const truth = new Map<string, Holdings>();
  for (const id of aex9Tokens(v3.devnode.chain).keys()) {
    const expected = await contractBalances(v3, id);
    expect(await servedBalances(v3, id), id).to.deep.equal(expected);
    truth.set(id, expected);
  }
  const holders = new Set([...truth.values()].flatMap((h) => [...h.keys()]));
  for (const account of holders) {
    const listed = await walkPages<{ contractId: string; amount: bigint }>(
      await v3.mdw.getAex9AccountBalances(account as Encoded.AccountAddress),
    );
    for (const { contractId: token, amount } of listed)
      expect(amount, `${account} in ${token}`).to.equal(truth.get(token)?.get(account) ?? 0n);
  }
  const tokens = await walkPages<{ contractId: string; eventSupply: bigint; initialSupply: bigint }>(
    await v3.mdw.getSortedAex9Tokens({ limit: 100 }),
  );
  expect(tokens.map((t) => t.contractId).sort()).to.deep.equal([...truth.keys()].sort());
  for (const t of tokens) {
    const total = [...truth.get(t.contractId)!.values()].reduce((a, b) => a + b, 0n);
    expect(t.initialSupply + t.eventSupply, `${t.contractId}: the supplies add up to its balances`).to.equal(total);
    expect((await v3.mdw.getAex9ByContract(t.contractId as Encoded.ContractAddress)).eventSupply).to.equal(
      t.eventSupply,
    );
  }
  return truth;
}

const token = async (v3: V3UnderTest, id: string): Promise<Obj> => (await v3.get(`/mdw/v3/aex9/${id}`)).body as Obj;

const GENERATED_CASE = 'serves every balance as balances() answers it, none negative, wrapped AE known by its code';

/** generatedChainExact is GENERATED_CASE on a generated chain, before anything is added to it */
async function generatedChainExact(v3: V3UnderTest): Promise<void> {
  expect(v3.settings.DEX_WRAPPED_AE, 'the default configuration').to.equal(undefined);
  const wae = wrappedAe(v3.devnode.chain);
  expect(wae, 'the devnode deploys wrapped AE').to.not.equal('');
  const truth = await everyTokenExact(v3);
  expect(truth.get(wae)!.size, 'wrapped AE has holders, who deposited').to.be.above(0);
  // nothing here needs its state read: every token's events explain it
  for (const id of truth.keys()) expect((await token(v3, id)).invalid, id).to.equal(false);
  expect(((await v3.get('/mdw/v3/status')).body as Obj).mdw_aex9_state_tokens).to.equal(0);
}

/** the share of token transactions of the generated chains (GenerateOptions.tokenShare) */
const TOKEN_SHARE = 0.25;

describe("AEX-9 balances of a generated chain (aex9-state-mainnet, mainnet-like) against the contracts' state, default configuration", function () {
  this.timeout(600_000);
  let v3: V3UnderTest;

  before(async () => {
    v3 = await startV3(20, 'aex9-state-mainnet', () => ({}), { tokenShare: TOKEN_SHARE, profile: 'mainnet-like' });
  });
  after(async () => {
    await v3?.close();
  });

  it(GENERATED_CASE, () => generatedChainExact(v3));
});

describe('AEX-9 tokens whose events cannot explain their balances, and forks across them', function () {
  this.timeout(600_000);
  let v3: V3UnderTest;
  let keys: KeyPair[];

  /** mine admits signed calls and creates, seals them in a micro block and mines a key block */
  const mine = async (...txs: ReturnType<typeof callTx>[]): Promise<string[]> => {
    const hashes = txs.map((built) => v3.devnode.chain.admit(signBuilt('ae_devnet', built), built.tx).hash);
    await v3.devnode.mineKeyBlock();
    return hashes;
  };

  const nonce = (k: KeyPair, ahead = 0): number =>
    (v3.devnode.chain.pending.accounts.get(k.address)?.nonce ?? 0) + 1 + ahead;
  const deploy = (
    owner: KeyPair,
    kind: ContractKind,
    args: FateValue[],
  ): { id: string; tx: ReturnType<typeof callTx> } => {
    const n = nonce(owner);
    return { id: contractId(owner.address, n), tx: createTx(owner, n, kind, args) };
  };
  const call = (k: KeyPair, contract: string, fn: string, args: FateValue[], amount = 0n, ahead = 0) =>
    callTx(k, nonce(k, ahead), contract, fn, args, amount);

  before(async () => {
    v3 = await startV3(30, 'v3check', () => ({}), { tokenShare: TOKEN_SHARE });
    keys = v3.devnode.accounts.map((a) => parseSecretKey(a.secretKey));
  });
  after(async () => {
    await v3?.close();
  });

  it(`on its generated chain (v3check), default configuration: ${GENERATED_CASE}`, () => generatedChainExact(v3));

  let quiet = '';
  let burnt = '';

  it('reads a token that mints without events from its state once its events take a balance below zero', async () => {
    const [owner, b, c] = keys;
    const created = deploy(owner!, 'aex9_unlogged', ['Quiet', 18n, 'QUIET', option(1000n)]);
    quiet = created.id;
    await mine(created.tx);
    // 5000 minted to b without an event, and 3000 of them sent to c: b's events alone would hold -3000
    await mine(
      call(owner!, quiet, 'mint', [address(b!.address), 5000n]),
      call(b!, quiet, 'transfer', [address(c!.address), 3000n]),
    );
    const truth = await everyTokenExact(v3);
    expect(truth.get(quiet)).to.deep.equal(
      holdings([
        [owner!.address, 1000n],
        [b!.address, 2000n],
        [c!.address, 3000n],
      ]),
    );
    expect(await token(v3, quiet)).to.include({ invalid: true, invalid_reason: 'negative_balance' });
    // the status reads its figures as of its last look at the chain, which may be a moment before the token's read
    await waitFor(
      'the status counting the token read from its state',
      async () => ((await v3.get('/mdw/v3/status')).body as Obj).mdw_aex9_state_tokens === 1,
    );
  });

  it('reads it again whenever it is touched: a later silent mint shows at its next call', async () => {
    const [owner] = keys;
    const d = deriveKey('aex9-state', 'holder d');
    const mintTx = call(owner!, quiet, 'mint', [address(d.address), 7n]);
    const touchTx = call(owner!, quiet, 'transfer', [address(keys[1]!.address), 1n], 0n, 1);
    await mine(mintTx, touchTx);
    const truth = await everyTokenExact(v3);
    expect(truth.get(quiet)!.get(d.address)).to.equal(7n);
  });

  it('serves a negative event_supply that the SDK reads: a token that burnt what it held at creation', async () => {
    const [, b] = keys;
    const supply = 10n ** 24n;
    const created = deploy(b!, 'aex9', ['Burnt', 18n, 'BURNT', option(supply)]);
    burnt = created.id;
    await mine(created.tx);
    await mine(call(b!, burnt, 'burn', [supply]));
    await everyTokenExact(v3);
    const raw = await token(v3, burnt);
    expect([raw.initial_supply, raw.event_supply, raw.invalid]).to.deep.equal([supply, (-supply).toString(), false]);
    const viaSdk = await v3.mdw.getAex9ByContract(burnt as Encoded.ContractAddress);
    expect([viaSdk.initialSupply, viaSdk.eventSupply]).to.deep.equal([supply, -supply]);
  });

  it('stays exact across a fork that replaces the blocks of a deposit and of a read of the state', async () => {
    const wae = wrappedAe(v3.devnode.chain);
    const [owner, b, c] = keys;
    await mine(call(c!, wae, 'deposit', [], 10n ** 18n), call(c!, wae, 'transfer', [address(b!.address), 4n], 0n, 1));
    const before = await everyTokenExact(v3);
    // a deposit, and a silent mint read at the token's next touch, in the generation the fork replaces
    const [deposit] = await mine(
      call(b!, wae, 'deposit', [], 3n * 10n ** 18n),
      call(owner!, quiet, 'mint', [address(c!.address), 11n]),
      call(owner!, quiet, 'transfer', [address(b!.address), 1n], 0n, 1),
    );
    const forked = await everyTokenExact(v3);
    expect(forked.get(wae)!.get(b!.address)).to.equal(before.get(wae)!.get(b!.address)! + 3n * 10n ** 18n);
    expect(forked.get(quiet)!.get(c!.address)).to.equal(before.get(quiet)!.get(c!.address)! + 11n);
    const oldBlock = v3.devnode.chain.txs.get(deposit!)!.blockHash;
    // that generation and the key block after it replaced by others: the devnode seals their transactions again
    // in new blocks, so the populator rolls back the deposit and the read and loads them again from other blocks
    await v3.devnode.fork(2);
    await v3.devnode.mineKeyBlock();
    const after = await everyTokenExact(v3);
    const newBlock = v3.devnode.chain.txs.get(deposit!)?.blockHash;
    expect(newBlock, 'the deposit moved to another block').to.not.equal(oldBlock);
    const served = (await v3.get(`/mdw/v3/transactions/${deposit}`)).body as Obj;
    expect(served.block_hash).to.equal(newBlock);
    expect(after.get(quiet)).to.deep.equal(forked.get(quiet));
    expect(await token(v3, quiet)).to.include({ invalid: true, invalid_reason: 'negative_balance' });
  });

  it('stays exact across a fork deeper than the token: its creation, silent mint and reads replaced', async () => {
    await v3.devnode.fork(8);
    await v3.devnode.mineKeyBlock();
    const after = await everyTokenExact(v3);
    expect(after.has(quiet) && after.has(burnt)).to.equal(true);
  });
});
