/**
 * @module aepp-sdk 14 end to end, as a wallet or dapp uses it: `AeSdk` with `MemoryAccount`s over `new Node(url)`,
 * nothing else. Spends (to an address, to a name with a payload, transferFunds), the name life cycle with an auction
 * bid, an oracle round trip, the devnode's token through `Contract` with its ACI (deploy, call, static call), a
 * generalized account, a PayingFor transaction, and the chain waits. Each answer is checked against the devnode's
 * chain. The node URL is the devnode's own or the middleware's (the gateway), so both run the same flows; each flow
 * records what the SDK saw in `outcomes`, for a later read-back.
 */
import { expect } from 'chai';
import {
  AccountGeneralized,
  AeSdk,
  Contract,
  Encoding,
  MemoryAccount,
  Name,
  Node,
  Oracle,
  OracleClient,
  Tag,
  computeBidFee,
  encode,
  getMinimumNameFee,
  unpackTx,
} from '@aeternity/aepp-sdk';
import { BYTECODE, GA_ACI, GA_CONTRACT_BYTECODE, TOKEN_ACI, type Devnode } from '../../src/devnode/index.ts';
import type { DevnodeOptions } from '../../src/devnode/devnode.ts';
import { gaAuthData } from '../../src/devnode/contracts/fate-contract.ts';

export const AE = 10n ** 18n;
const label = (length: number): string =>
  Array.from({ length }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('');

/** SdkAccounts: alice, bob and carol start with 1000 AE each; fresh starts empty. */
export interface SdkAccounts {
  alice: MemoryAccount;
  bob: MemoryAccount;
  carol: MemoryAccount;
  fresh: MemoryAccount;
}

/** AeSdkOutcomes is what the SDK saw, flow by flow: transaction hashes, ids and values to read back elsewhere. */
export interface AeSdkOutcomes {
  spend?: { hash: string; amount: bigint };
  transfer?: { hash: string; amount: bigint };
  name?: { value: string; id: string; hashes: Record<string, string>; spendAmount: bigint };
  auction?: { value: string; claimHash: string; bidHash: string; bid: bigint; winner: string };
  oracle?: { id: string; queryId: string; query: string; response: string; hashes: Record<string, string> };
  contract?: { address: string; createHash: string; callHash: string };
  ga?: { address: string; attachHash: string; metaHash: string };
  payingFor?: { hash: string; sender: string; payer: string };
}

/** sdkAccounts generates the flows' four accounts. */
export function sdkAccounts(): SdkAccounts {
  const [alice, bob, carol, fresh] = [0, 1, 2, 3].map(() => MemoryAccount.generate()) as MemoryAccount[];
  return { alice: alice!, bob: bob!, carol: carol!, fresh: fresh! };
}

/**
 * sdkDevnodeOptions: network `ae_dev` (for which the SDK polls without pausing), a micro block every 10 ms and a key
 * block every 150 ms, so the flows run in a few seconds; alice, bob and carol funded.
 */
export function sdkDevnodeOptions(accounts: SdkAccounts): DevnodeOptions {
  return {
    port: 0,
    internalPort: 0,
    networkId: 'ae_dev',
    microBlockIntervalMs: 10,
    keyBlockIntervalMs: 150,
    accounts: [accounts.alice, accounts.bob, accounts.carol].map((a) => ({
      secretKey: a.secretKey,
      balance: 1000n * AE,
    })),
  };
}

/** AeSdkFlowEnv: the devnode (the truth) and the node URL the SDK is given. */
export interface AeSdkFlowEnv {
  devnode: Devnode;
  nodeUrl: string;
  /**
   * the lowest height the node URL may answer now (the devnode's own when not given): the gateway answers the current
   * height from its database, which trails the node's by up to a poll of the populator
   */
  lowestHeight?: () => Promise<number>;
}

/**
 * aeSdkFlows registers the flows as mocha tests in the calling `describe`; `env` gives the devnode (the truth) and
 * the node URL the SDK is given, once its `before` has run. It returns the outcomes, filled as the flows pass.
 */
export function aeSdkFlows(accounts: SdkAccounts, env: () => AeSdkFlowEnv): AeSdkOutcomes {
  const { alice, bob, carol, fresh } = accounts;
  const outcomes: AeSdkOutcomes = {};
  let aeSdk: AeSdk;
  const devnode = (): Devnode => env().devnode;
  const balance = (address: string): bigint => devnode().chain.state.accounts.get(address)?.balance ?? 0n;
  const mine = async (keyBlocks: number): Promise<void> => {
    for (let i = 0; i < keyBlocks; i++) await devnode().mineKeyBlock();
  };

  before(() => {
    aeSdk = new AeSdk({ nodes: [{ name: 'node', instance: new Node(env().nodeUrl) }], accounts: [alice, bob] });
  });

  it('reads height and balances, spends and waits for heights and confirmations', async () => {
    const before = (await env().lowestHeight?.()) ?? devnode().height(); // a key block may come while the SDK asks
    expect(await aeSdk.getHeight()).to.be.within(before, devnode().height());
    expect(await aeSdk.getBalance(alice.address)).to.equal((1000n * AE).toString());
    const spent = await aeSdk.spend((5n * AE).toString(), carol.address);
    expect(spent.blockHeight).to.be.at.least(0);
    expect(devnode().chain.txs.get(spent.hash)?.blockHash).to.equal(spent.blockHash);
    expect(await aeSdk.getBalance(carol.address)).to.equal(balance(carol.address).toString());
    expect(balance(carol.address)).to.equal(1005n * AE);
    outcomes.spend = { hash: spent.hash, amount: 5n * AE };
    const confirmed = await aeSdk.waitForTxConfirm(spent.hash, { confirm: 2 });
    expect(confirmed).to.be.at.least(spent.blockHeight! + 2);
    const target = devnode().height() + 2;
    expect(await aeSdk.awaitHeight(target)).to.be.at.least(target);
  });

  it('transfers a share of the balance with transferFunds', async () => {
    const before = balance(bob.address);
    const sent = await aeSdk.transferFunds(0.5, fresh.address, { onAccount: bob });
    expect(balance(fresh.address)).to.equal(before / 2n);
    outcomes.transfer = { hash: sent.hash, amount: before / 2n };
  });

  it('goes through the name life cycle and spends to a name with a payload', async () => {
    const name = new Name(`${label(16)}.chain`, aeSdk.getContext());
    const hashes: Record<string, string> = {};
    hashes.preclaim = (await name.preclaim()).hash;
    await aeSdk.awaitHeight((await aeSdk.getHeight()) + 1);
    hashes.claim = (await name.claim()).hash;
    expect((await name.getState()).owner).to.equal(alice.address);
    hashes.update = (await name.update({ account_pubkey: bob.address })).hash;
    const pointers = (await name.getState()).pointers;
    const encodedKey = encode(Buffer.from('account_pubkey'), Encoding.Bytearray);
    expect(pointers).to.deep.equal([{ key: 'account_pubkey', id: bob.address, encodedKey }]);

    const before = balance(bob.address);
    const payload = encode(Buffer.from('to a name'), Encoding.Bytearray);
    const spend = await aeSdk.spend(7, name.value, { payload } as never);
    hashes.spend = spend.hash;
    expect(balance(bob.address)).to.equal(before + 7n);
    const signed = unpackTx(spend.rawTx, Tag.SignedTx) as unknown as { encodedTx: Record<string, unknown> };
    expect(signed.encodedTx).to.include({ recipientId: name.id, payload });

    const extended = await name.extendTtl(100_000);
    hashes.extend = extended.hash;
    expect((await name.getState()).ttl).to.equal(extended.blockHeight! + 100_000);
    hashes.transfer = (await name.transfer(bob.address)).hash;
    expect((await name.getState()).owner).to.equal(bob.address);
    hashes.revoke = (await name.revoke({ onAccount: bob })).hash;
    await name.getState().then(
      () => expect.fail('a revoked name is not found'),
      (err: Error) => expect(err.message).to.match(/Name revoked/),
    );
    outcomes.name = { value: name.value, id: name.id, hashes, spendAmount: 7n };
  });

  it('bids in a name auction and gives the name to the highest bidder at its end', async () => {
    const name = new Name(`${label(10)}.chain`, aeSdk.getContext());
    const claim = await name.claim(); // with the lowest name fee, which starts the auction
    const bid = computeBidFee(name.value, { startFee: getMinimumNameFee(name.value) });
    const bidTx = await name.bid(bid, { onAccount: bob });
    const auction = await name.getAuctionState();
    expect([auction.highestBidder, auction.highestBid]).to.deep.equal([bob.address, BigInt(bid.toFixed())]);
    await mine(auction.endsAt - devnode().height() + 1);
    expect((await name.getState()).owner).to.equal(bob.address);
    const amount = BigInt(bid.toFixed());
    outcomes.auction = {
      value: name.value,
      claimHash: claim.hash,
      bidHash: bidTx.hash,
      bid: amount,
      winner: bob.address,
    };
  });

  it('runs an oracle round trip: register, query, respond, extend, poll', async () => {
    // the SDK's option types do not name the transaction fields they pass on
    const oracle = new Oracle(carol, aeSdk.getContext());
    const hashes: Record<string, string> = {};
    hashes.register = (
      await oracle.register('{"city": string}', '{"temperature": int}', { queryFee: '1000' } as never)
    ).hash;
    const client = new OracleClient(oracle.address, { ...aeSdk.getContext(), onAccount: alice });
    const ttls = { queryTtlValue: 50, responseTtlValue: 50 };
    const posted = await client.postQuery('{"city": "Berlin"}', ttls as never);
    hashes.query = posted.hash;
    const { queryId } = posted;
    const [query] = await oracle.getQueries();
    expect([query!.id, query!.decodedQuery]).to.deep.equal([queryId, '{"city": "Berlin"}']);
    hashes.respond = (await oracle.respondToQuery(queryId, '{"temperature": 21}', ttls as never)).hash;
    expect(await client.pollForResponse(queryId)).to.equal('{"temperature": 21}');
    expect(devnode().chain.state.queries.get(queryId)?.response).to.equal('{"temperature": 21}');
    const ttl = (await oracle.getState()).ttl;
    hashes.extend = (await oracle.extendTtl({ oracleTtlValue: 100 } as never)).hash;
    expect((await oracle.getState()).ttl).to.equal(ttl + 100);
    outcomes.oracle = {
      id: oracle.address,
      queryId,
      query: query!.decodedQuery,
      response: '{"temperature": 21}',
      hashes,
    };
  });

  it('deploys and calls the devnode token through Contract and its ACI, statically and on chain', async () => {
    const token = await Contract.initialize<{
      init: (name: string, decimals: bigint, symbol: string, supply?: bigint) => void;
      transfer: (to: string, amount: bigint) => void;
      balance: (owner: string) => bigint | undefined;
      meta_info: () => [string, string, bigint];
    }>({ ...aeSdk.getContext(), aci: TOKEN_ACI as never, bytecode: BYTECODE.aex9 as `cb_${string}` });
    const deployed = await token.$deploy(['SDK Token', 2n, 'SDK', 10_000n]);
    expect(devnode().chain.state.contracts.get(deployed.address!)?.ownerId).to.equal(alice.address);
    const transfer = await token.transfer(bob.address, 2_500n);
    expect(transfer.decodedEvents).to.deep.equal([
      {
        name: 'Transfer',
        args: [alice.address, bob.address, 2_500n],
        contract: { name: 'FungibleTokenFull', address: deployed.address },
      },
    ]);
    expect((await token.balance(bob.address)).decodedResult).to.equal(2_500n);
    expect((await token.balance(alice.address)).decodedResult).to.equal(7_500n);
    // the devnode's type table gives meta_info a tuple (a Sophia record is one in FATE), so the ACI has no field names
    expect((await token.meta_info()).decodedResult).to.deep.equal(['SDK Token', 'SDK', 2n]);
    outcomes.contract = { address: deployed.address!, createHash: deployed.transaction!, callHash: transfer.hash! };
  });

  it('attaches a generalized account and spends from it with a meta transaction', async () => {
    const ga = MemoryAccount.generate();
    await aeSdk.spend((10n * AE).toString(), ga.address);
    const attached = await aeSdk.createGeneralizedAccount('authorize', [], {
      onAccount: ga,
      bytecode: GA_CONTRACT_BYTECODE,
      aci: GA_ACI as never,
    });
    expect((await aeSdk.api.getAccountByPubkey(ga.address)).kind).to.equal('generalized');
    const before = balance(carol.address);
    const meta = await aeSdk.spend(42, carol.address, {
      onAccount: new AccountGeneralized(ga.address),
      authData: { callData: gaAuthData(1n) },
    });
    expect(balance(carol.address)).to.equal(before + 42n);
    expect((await aeSdk.api.getTransactionInfoByHash(meta.hash)).gaInfo?.returnType).to.equal('ok');
    outcomes.ga = { address: ga.address, attachHash: attached.transaction, metaHash: meta.hash };
  });

  it('pays for another account transaction with PayingForTx', async () => {
    const payer = alice;
    const sender = MemoryAccount.generate();
    await aeSdk.spend(AE.toString(), sender.address);
    const inner = await aeSdk.buildTx({
      tag: Tag.SpendTx,
      senderId: sender.address,
      recipientId: carol.address,
      amount: 3n,
    });
    const signedInner = await aeSdk.signTransaction(inner, { onAccount: sender, innerTx: true });
    const senderBefore = balance(sender.address);
    const paid = await aeSdk.payForTransaction(signedInner, { onAccount: payer });
    expect(balance(sender.address)).to.equal(senderBefore - 3n);
    outcomes.payingFor = { hash: paid.hash, sender: sender.address, payer: payer.address };
  });

  return outcomes;
}
