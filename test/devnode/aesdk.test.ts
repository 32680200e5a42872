/**
 * @module aepp-sdk 14 end to end against the devnode, as a wallet or dapp uses it: `AeSdk` with `MemoryAccount`s
 * over `new Node(<devnode>)`, nothing else. Spends (to an address, to a name with a payload, transferFunds), the
 * name life cycle with an auction bid, an oracle round trip, the devnode's token through `Contract` with its ACI
 * (deploy, call, static call), a generalized account, a PayingFor transaction, and the chain waits. Each answer is
 * checked against the devnode's chain. The devnode runs on network `ae_dev`, for which the SDK polls without
 * pausing, and mines a micro block every 10 ms and a key block every 150 ms, so the whole runs in a few seconds.
 */
import { expect } from 'chai';
import pino from 'pino';
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
import {
  BYTECODE,
  GA_ACI,
  GA_CONTRACT_BYTECODE,
  TOKEN_ACI,
  startDevnode,
  type Devnode,
} from '../../src/devnode/index.ts';
import { gaAuthData } from '../../src/devnode/fate-contract.ts';

const AE = 10n ** 18n;
const label = (length: number): string =>
  Array.from({ length }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('');

describe('aepp-sdk AeSdk against the devnode', function () {
  this.timeout(60_000);
  let devnode: Devnode;
  let aeSdk: AeSdk;
  const [alice, bob, carol, fresh] = [0, 1, 2, 3].map(() => MemoryAccount.generate()) as MemoryAccount[];
  const balance = (address: string): bigint => devnode.chain.state.accounts.get(address)?.balance ?? 0n;
  const mine = async (keyBlocks: number): Promise<void> => {
    for (let i = 0; i < keyBlocks; i++) await devnode.mineKeyBlock();
  };

  before(async () => {
    devnode = await startDevnode(
      {
        port: 0,
        internalPort: 0,
        networkId: 'ae_dev',
        microBlockIntervalMs: 10,
        keyBlockIntervalMs: 150,
        accounts: [alice, bob, carol].map((a) => ({ secretKey: a!.secretKey, balance: 1000n * AE })),
      },
      pino({ level: 'silent' }),
    );
    aeSdk = new AeSdk({
      nodes: [{ name: 'devnode', instance: new Node(devnode.externalUrl) }],
      accounts: [alice!, bob!],
    });
  });
  after(async () => {
    await devnode?.stop();
  });

  it('reads height and balances, spends and waits for heights and confirmations', async () => {
    const before = devnode.height(); // a key block may come while the SDK asks
    expect(await aeSdk.getHeight()).to.be.within(before, devnode.height());
    expect(await aeSdk.getBalance(alice!.address)).to.equal((1000n * AE).toString());
    const spent = await aeSdk.spend((5n * AE).toString(), carol!.address);
    expect(spent.blockHeight).to.be.at.least(0);
    expect(devnode.chain.txs.get(spent.hash)?.blockHash).to.equal(spent.blockHash);
    expect(await aeSdk.getBalance(carol!.address)).to.equal(balance(carol!.address).toString());
    expect(balance(carol!.address)).to.equal(1005n * AE);
    const confirmed = await aeSdk.waitForTxConfirm(spent.hash, { confirm: 2 });
    expect(confirmed).to.be.at.least(spent.blockHeight! + 2);
    const target = devnode.height() + 2;
    expect(await aeSdk.awaitHeight(target)).to.be.at.least(target);
  });

  it('transfers a share of the balance with transferFunds', async () => {
    const before = balance(bob!.address);
    await aeSdk.transferFunds(0.5, fresh!.address, { onAccount: bob });
    expect(balance(fresh!.address)).to.equal(before / 2n);
  });

  it('goes through the name life cycle and spends to a name with a payload', async () => {
    const name = new Name(`${label(16)}.chain`, aeSdk.getContext());
    await name.preclaim();
    await aeSdk.awaitHeight((await aeSdk.getHeight()) + 1);
    await name.claim();
    expect((await name.getState()).owner).to.equal(alice!.address);
    await name.update({ account_pubkey: bob!.address });
    const pointers = (await name.getState()).pointers;
    const encodedKey = encode(Buffer.from('account_pubkey'), Encoding.Bytearray);
    expect(pointers).to.deep.equal([{ key: 'account_pubkey', id: bob!.address, encodedKey }]);

    const before = balance(bob!.address);
    const payload = encode(Buffer.from('to a name'), Encoding.Bytearray);
    const spend = await aeSdk.spend(7, name.value, { payload } as never);
    expect(balance(bob!.address)).to.equal(before + 7n);
    const signed = unpackTx(spend.rawTx, Tag.SignedTx) as unknown as { encodedTx: Record<string, unknown> };
    expect(signed.encodedTx).to.include({ recipientId: name.id, payload });

    const extended = await name.extendTtl(100_000);
    expect((await name.getState()).ttl).to.equal(extended.blockHeight! + 100_000);
    await name.transfer(bob!.address);
    expect((await name.getState()).owner).to.equal(bob!.address);
    await name.revoke({ onAccount: bob });
    await name.getState().then(
      () => expect.fail('a revoked name is not found'),
      (err: Error) => expect(err.message).to.match(/Name revoked/),
    );
  });

  it('bids in a name auction and gives the name to the highest bidder at its end', async () => {
    const name = new Name(`${label(10)}.chain`, aeSdk.getContext());
    await name.claim(); // with the lowest name fee, which starts the auction
    const bid = computeBidFee(name.value, { startFee: getMinimumNameFee(name.value) });
    await name.bid(bid, { onAccount: bob });
    const auction = await name.getAuctionState();
    expect([auction.highestBidder, auction.highestBid]).to.deep.equal([bob!.address, BigInt(bid.toFixed())]);
    await mine(auction.endsAt - devnode.height() + 1);
    expect((await name.getState()).owner).to.equal(bob!.address);
  });

  it('runs an oracle round trip: register, query, respond, extend, poll', async () => {
    // the SDK's option types do not name the transaction fields they pass on
    const oracle = new Oracle(carol!, aeSdk.getContext());
    await oracle.register('{"city": string}', '{"temperature": int}', { queryFee: '1000' } as never);
    const client = new OracleClient(oracle.address, { ...aeSdk.getContext(), onAccount: alice! });
    const ttls = { queryTtlValue: 50, responseTtlValue: 50 };
    const { queryId } = await client.postQuery('{"city": "Berlin"}', ttls as never);
    const [query] = await oracle.getQueries();
    expect([query!.id, query!.decodedQuery]).to.deep.equal([queryId, '{"city": "Berlin"}']);
    await oracle.respondToQuery(queryId, '{"temperature": 21}', ttls as never);
    expect(await client.pollForResponse(queryId)).to.equal('{"temperature": 21}');
    expect(devnode.chain.state.queries.get(queryId)?.response).to.equal('{"temperature": 21}');
    const ttl = (await oracle.getState()).ttl;
    await oracle.extendTtl({ oracleTtlValue: 100 } as never);
    expect((await oracle.getState()).ttl).to.equal(ttl + 100);
  });

  it('deploys and calls the devnode token through Contract and its ACI, statically and on chain', async () => {
    const token = await Contract.initialize<{
      init: (name: string, decimals: bigint, symbol: string, supply?: bigint) => void;
      transfer: (to: string, amount: bigint) => void;
      balance: (owner: string) => bigint | undefined;
      meta_info: () => [string, string, bigint];
    }>({ ...aeSdk.getContext(), aci: TOKEN_ACI as never, bytecode: BYTECODE.aex9 as `cb_${string}` });
    const deployed = await token.$deploy(['SDK Token', 2n, 'SDK', 10_000n]);
    expect(devnode.chain.state.contracts.get(deployed.address!)?.ownerId).to.equal(alice!.address);
    const transfer = await token.transfer(bob!.address, 2_500n);
    expect(transfer.decodedEvents).to.deep.equal([
      {
        name: 'Transfer',
        args: [alice!.address, bob!.address, 2_500n],
        contract: { name: 'FungibleTokenFull', address: deployed.address },
      },
    ]);
    expect((await token.balance(bob!.address)).decodedResult).to.equal(2_500n);
    expect((await token.balance(alice!.address)).decodedResult).to.equal(7_500n);
    // the devnode's type table gives meta_info a tuple (a Sophia record is one in FATE), so the ACI has no field names
    expect((await token.meta_info()).decodedResult).to.deep.equal(['SDK Token', 'SDK', 2n]);
  });

  it('attaches a generalized account and spends from it with a meta transaction', async () => {
    const ga = MemoryAccount.generate();
    await aeSdk.spend((10n * AE).toString(), ga.address);
    await aeSdk.createGeneralizedAccount('authorize', [], {
      onAccount: ga,
      bytecode: GA_CONTRACT_BYTECODE,
      aci: GA_ACI as never,
    });
    expect((await aeSdk.api.getAccountByPubkey(ga.address)).kind).to.equal('generalized');
    const before = balance(carol!.address);
    const meta = await aeSdk.spend(42, carol!.address, {
      onAccount: new AccountGeneralized(ga.address),
      authData: { callData: gaAuthData(1n) },
    });
    expect(balance(carol!.address)).to.equal(before + 42n);
    expect((await aeSdk.api.getTransactionInfoByHash(meta.hash)).gaInfo?.returnType).to.equal('ok');
  });

  it('pays for another account transaction with PayingForTx', async () => {
    const payer = alice!;
    const sender = MemoryAccount.generate();
    await aeSdk.spend(AE.toString(), sender.address);
    const inner = await aeSdk.buildTx({
      tag: Tag.SpendTx,
      senderId: sender.address,
      recipientId: carol!.address,
      amount: 3n,
    });
    const signedInner = await aeSdk.signTransaction(inner, { onAccount: sender, innerTx: true });
    const senderBefore = balance(sender.address);
    await aeSdk.payForTransaction(signedInner, { onAccount: payer });
    expect(balance(sender.address)).to.equal(senderBefore - 3n);
  });
});
