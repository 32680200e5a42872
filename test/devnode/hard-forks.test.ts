/** @module The devnode's protocol schedule: its blocks' versions, its forks' accounts and contracts, and no transactions below Ceres. */
import { expect } from 'chai';
import { Protocol } from '../../src/chain/aens.ts';
import { encode } from '../../src/chain/encoding.ts';
import { Chain, keyPairFromSeed } from '../../src/devnode/index.ts';
import { LOCKED_COINS_ACCOUNT } from '../../src/chain/derived-ids.ts';
import { forkContractId, parseHardForkSchedule, ProtocolSchedule } from '../../src/devnode/rules/hard-forks.ts';
import { TxRejected } from '../../src/devnode/rules/apply.ts';
import type { TxFields } from '../../src/devnode/tx-codec.ts';

const pair = (n: number) => keyPairFromSeed(new Uint8Array(32).fill(n));
const genesis = pair(1).address;
const newcomer = pair(2).address;
const code = encode('cb', Uint8Array.of(1, 2, 3));
const contract = { nonce: 4, amount: 9n, vmVersion: 7, abiVersion: 3, code, callData: code };

const chainWith = (hardForks: ConstructorParameters<typeof ProtocolSchedule>[0]): Chain =>
  new Chain({
    networkId: 'ae_devnet',
    miner: pair(9),
    beneficiary: pair(9).address,
    genesisAccounts: [{ address: genesis, balance: 100n }],
    genesisTime: 1_700_000_000_000,
    hardForks,
  });

describe('devnode hard forks', () => {
  it('carries each height’s protocol in its blocks and credits a fork’s accounts and contracts at its key block', () => {
    const chain = chainWith([
      { version: Protocol.ROMA, height: 0 },
      { version: Protocol.MINERVA, height: 1, accounts: [{ address: genesis, balance: 5n }] },
      {
        version: Protocol.LIMA,
        height: 3,
        accounts: [{ address: newcomer, balance: 7n }],
        extraAccounts: [{ address: newcomer, balance: 1n }],
        contracts: [contract],
      },
      { version: Protocol.CERES, height: 4 },
    ]);
    const balance = (id: string): bigint | undefined => chain.state.accounts.get(id)?.balance;
    expect(chain.top.header.version).to.equal(Protocol.ROMA);
    chain.mineKeyBlock();
    expect(chain.top.header.version).to.equal(Protocol.MINERVA);
    expect(balance(genesis)).to.equal(105n);
    chain.mineKeyBlock();
    expect(balance(newcomer)).to.equal(undefined);
    chain.mineKeyBlock();
    expect(chain.top.header.version).to.equal(Protocol.LIMA);
    expect(balance(newcomer)).to.equal(8n);
    const id = forkContractId(contract);
    expect(chain.state.contracts.get(id)).to.include({ ownerId: LOCKED_COINS_ACCOUNT, code });
    expect(balance(id.replace('ct_', 'ak_'))).to.equal(9n);
    expect(chain.state.accounts.get(LOCKED_COINS_ACCOUNT)).to.deep.equal({ balance: 0n, nonce: 4 });
    chain.mineKeyBlock();
    expect(chain.top.header.version).to.equal(Protocol.CERES);
    expect(chain.schedule.statusProtocols()).to.deep.equal([
      { version: 1, effective_at_height: 0 },
      { version: 2, effective_at_height: 1 },
      { version: 4, effective_at_height: 3 },
      { version: 6, effective_at_height: 4 },
    ]);
    // a fork of the chain replays the forks' credits once
    chain.fork(3);
    expect(balance(genesis)).to.equal(105n);
    expect(balance(newcomer)).to.equal(8n);
  });

  it('takes no transaction while its protocol is below the Ceres rules it runs', () => {
    const chain = chainWith([
      { version: Protocol.IRIS, height: 0 },
      { version: Protocol.CERES, height: 2 },
    ]);
    const spend = { type: 'SpendTx' } as unknown as TxFields;
    expect(() => chain.admit(new Uint8Array([1]), spend)).to.throw(TxRejected, /protocol 5 takes no transactions/);
    chain.mineKeyBlock();
    expect(() => chain.admit(new Uint8Array([1]), spend)).to.throw(TxRejected, /protocol 5/);
    chain.mineKeyBlock();
    expect(() => chain.admit(new Uint8Array([1]), spend))
      .to.throw(TxRejected)
      .that.does.not.match(/protocol/);
  });

  it('refuses a schedule the node would not run', () => {
    expect(() => new ProtocolSchedule([{ version: Protocol.ROMA, height: 1 }])).to.throw(/height 0/);
    expect(
      () =>
        new ProtocolSchedule([
          { version: Protocol.LIMA, height: 0 },
          { version: Protocol.FORTUNA, height: 1 },
        ]),
    ).to.throw(/rise/);
    expect(
      () =>
        new ProtocolSchedule([
          { version: Protocol.ROMA, height: 0 },
          { version: Protocol.IRIS, height: 1, accounts: [{ address: genesis, balance: 1n }] },
        ]),
    ).to.throw(/migrates no accounts/);
    expect(
      () =>
        new ProtocolSchedule([
          { version: Protocol.ROMA, height: 0 },
          { version: Protocol.MINERVA, height: 1, contracts: [contract] },
        ]),
    ).to.throw(/only Lima/);
    expect(encode('ak', new Uint8Array(32))).to.equal(LOCKED_COINS_ACCOUNT);
  });

  it('runs Arcus (7) after Ceres, taking transactions in both, and a made-up later protocol only when told it is one', () => {
    const chain = chainWith([
      { version: Protocol.CERES, height: 0 },
      { version: Protocol.ARCUS, height: 2 },
    ]);
    for (let i = 0; i < 3; i++) chain.mineKeyBlock();
    expect(chain.keyBlocks.map((k) => k.header.version)).to.deep.equal([6, 6, 7, 7]);
    expect(chain.schedule.statusProtocols()).to.deep.equal([
      { version: 6, effective_at_height: 0 },
      { version: 7, effective_at_height: 2 },
    ]);
    // no rule refuses a transaction for its protocol at Arcus (this one fails its signature check instead)
    const spend = { type: 'SpendTx' } as unknown as TxFields;
    expect(() => chain.admit(new Uint8Array([1]), spend))
      .to.throw(TxRejected)
      .that.does.not.match(/protocol/);
    expect(parseHardForkSchedule('{"6": 0, "7": 5}')).to.deep.equal([
      { version: 6, height: 0 },
      { version: 7, height: 5 },
    ]);
    // 8 is no protocol of the node's: refused, unless a test says it makes one up
    expect(() => parseHardForkSchedule('{"6": 0, "8": 5}')).to.throw(/unknown protocol 8/);
    expect(() => parseHardForkSchedule('{"6": 0, "8": {"height": 5, "future": true}}')).to.throw(/unknown future/);
    expect(
      new ProtocolSchedule([
        { version: Protocol.CERES, height: 0 },
        { version: 8, height: 4, future: true },
      ]).protocolAt(4),
    ).to.equal(8);
    expect(
      () =>
        new ProtocolSchedule([
          { version: Protocol.CERES, height: 0 },
          { version: Protocol.ARCUS, height: 4, future: true },
        ]),
    ).to.throw(/known one/);
  });

  it('reads a schedule written as the node’s chain.hard_forks with the files inline', () => {
    const id = forkContractId(contract);
    const spec = { amount: 9, vm_version: 7, abi_version: 3, nonce: 4, code, call_data: code };
    const text = JSON.stringify({
      6: 9,
      1: 0,
      4: { height: 3, accounts: { [newcomer]: 7 }, extra_accounts: { [genesis]: 1 }, contracts: { [id]: spec } },
    });
    expect(parseHardForkSchedule(text)).to.deep.equal([
      { version: 1, height: 0 },
      {
        version: 4,
        height: 3,
        accounts: [{ address: newcomer, balance: 7n }],
        extraAccounts: [{ address: genesis, balance: 1n }],
        contracts: [contract],
      },
      { version: 6, height: 9 },
    ]);
    const other = forkContractId({ ...contract, nonce: 5 });
    expect(() =>
      parseHardForkSchedule(JSON.stringify({ 1: 0, 4: { height: 1, contracts: { [other]: spec } } })),
    ).to.throw(/not the locked-coins account's contract at nonce 4/);
    expect(() => parseHardForkSchedule(JSON.stringify({ 1: 0, 2: { height: 1, accounts_file: 'x' } }))).to.throw(
      /unknown accounts_file/,
    );
    expect(() => parseHardForkSchedule('[]')).to.throw(/protocol/);
  });
});
