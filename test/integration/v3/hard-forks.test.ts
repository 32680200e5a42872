import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Protocol } from '../../../src/chain/aens.ts';
import { encode, reprefix } from '../../../src/chain/encoding.ts';
import type { Json } from '../../../src/chain/json.ts';
import {
  DEFAULT_ACCOUNT_BALANCE,
  DEVNODE_CONTRACT_BYTECODE,
  forkContractId,
  keyPairFromSeed,
  type DevnodeHardFork,
} from '../../../src/devnode/index.ts';
import { FATE_ABI_VERSION, FATE_VM_VERSION } from '../../../src/devnode/contracts/fate-contract.ts';
import { KEY_BLOCK_REWARD } from '../../../src/devnode/rules/fees.ts';
import { startV3, walkPages, type V3UnderTest } from './harness.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import {
  backfillStoredForks,
  storedForksWithoutTransfers,
  transferRulesOf,
} from '../../../src/indexer/derived/internal-transfers.ts';

type Obj = { [key: string]: Json };
/** a Transfer as the SDK's client reads it */
type Transfer = {
  accountId: string;
  amount: bigint;
  height: number;
  kind: string;
  refBlockHash: string | null;
  refTxHash: string | null;
  refTxType: string | null;
};

const FORK_KINDS: readonly string[] = [
  'accounts_minerva',
  'accounts_fortuna',
  'accounts_lima',
  'accounts_extra_lima',
  'contracts_lima',
];
const newAddress = (): string => keyPairFromSeed(randomBytes(32)).address;

describe('/v3 hard-fork transfers, checked against a devnode chain that forks through Minerva, Fortuna and Lima', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  const genesis = [keyPairFromSeed(randomBytes(32)), keyPairFromSeed(randomBytes(32))];
  const fresh = [newAddress(), newAddress(), newAddress()];
  const contract = {
    amount: 31n * 10n ** 18n,
    vmVersion: FATE_VM_VERSION,
    abiVersion: FATE_ABI_VERSION,
    code: DEVNODE_CONTRACT_BYTECODE,
    callData: encode('cb', new Uint8Array(0)),
  };
  const contracts = [
    { ...contract, nonce: 2 },
    { ...contract, nonce: 1, amount: 3n },
  ];
  const schedule: DevnodeHardFork[] = [
    { version: Protocol.ROMA, height: 0 },
    // a genesis account and a new one; the new one again at Fortuna
    {
      version: Protocol.MINERVA,
      height: 2,
      accounts: [
        { address: genesis[0]!.address, balance: 5n * 10n ** 18n },
        { address: fresh[0]!, balance: 7n },
      ],
    },
    {
      version: Protocol.FORTUNA,
      height: 3,
      accounts: [
        { address: fresh[0]!, balance: 11n * 10n ** 30n },
        { address: fresh[1]!, balance: 13n },
      ],
    },
    {
      version: Protocol.LIMA,
      height: 5,
      accounts: [{ address: fresh[2]!, balance: 17n }],
      extraAccounts: [{ address: genesis[1]!.address, balance: 19n }],
      contracts,
    },
    { version: Protocol.CERES, height: 6 },
  ];
  const balanceOf = async (id: string): Promise<bigint> => {
    const body = (await v3.nodeGet(`/v2/accounts/${id}`)) as Obj;
    return body.balance === undefined ? 0n : BigInt(String(body.balance));
  };
  // `kind` is not in ae_mdw's spec, so the SDK reaches it by path
  const transfers = async (query: string): Promise<Transfer[]> =>
    walkPages<Transfer>(await v3.mdw.requestByPath(`/v3/transfers?direction=forward&limit=100${query}`));

  before(async () => {
    v3 = await startV3(0, 'v3-forks', () => ({}), {
      hardForks: schedule,
      accounts: genesis.map((k) => ({ secretKey: k.secretKey, balance: DEFAULT_ACCOUNT_BALANCE })),
    });
    for (let i = 0; i < 8; i++) await v3.devnode.mineKeyBlock();
    await v3.synced();
  });
  after(async () => {
    await v3?.close();
  });

  it('lists each fork’s accounts at the key block where the node’s chain enters its protocol, as the balances show', async () => {
    const keyBlocks = await Promise.all(
      Array.from({ length: v3.devnode.height() + 1 }, async (_, h) => v3.nodeGet(`/v2/key-blocks/height/${h}`)),
    );
    // the heights where the node's key blocks raise their protocol, and the protocol they enter
    const entered = new Map<number, number>();
    keyBlocks.forEach((kb, h) => {
      const version = Number((kb as Obj).version);
      if (h > 0 && version > Number((keyBlocks[h - 1] as Obj).version)) entered.set(h, version);
    });
    expect([...entered]).to.deep.equal([
      [2, Protocol.MINERVA],
      [3, Protocol.FORTUNA],
      [5, Protocol.LIMA],
      [6, Protocol.CERES],
    ]);
    const kindAt: Record<number, string[]> = {
      [Protocol.MINERVA]: ['accounts_minerva'],
      [Protocol.FORTUNA]: ['accounts_fortuna'],
      [Protocol.LIMA]: ['accounts_lima', 'accounts_extra_lima', 'contracts_lima'],
    };
    const all = await transfers('&kind=accounts_');
    const forkTransfers = [...all, ...(await transfers('&kind=contracts_'))].filter((t) =>
      FORK_KINDS.includes(String(t.kind)),
    );
    for (const t of forkTransfers) {
      const version = entered.get(t.height);
      expect(version, `${t.kind} at ${t.height}`).to.not.equal(undefined);
      expect(kindAt[version!], t.kind).to.include(t.kind);
      expect(t).to.include({ refTxHash: null, refTxType: null, refBlockHash: null });
    }
    for (const kind of FORK_KINDS) {
      const page = await transfers(`&kind=${kind}`);
      expect(page, kind).to.deep.equal(forkTransfers.filter((t) => t.kind === kind));
      expect(page.length, kind).to.be.greaterThan(0);
    }
    // every credited account holds what genesis and the forks gave it (no transaction and no reward touched them)
    const received = new Map<string, bigint>();
    for (const t of all.filter((x) => x.kind === 'accounts_roma')) received.set(t.accountId, t.amount);
    for (const t of forkTransfers) received.set(t.accountId, (received.get(t.accountId) ?? 0n) + t.amount);
    for (const id of [...genesis.map((k) => k.address), ...fresh, ...contracts.map((c) => forkContractId(c))]) {
      const account = reprefix(id, 'ak');
      expect(received.get(account), account).to.equal(await balanceOf(account));
    }
    // the contracts exist on the node under the ids the transfers name
    for (const c of contracts)
      expect((await v3.nodeGet(`/v2/contracts/${forkContractId(c)}`)) as Obj).to.have.property('id');
  });

  it('lists them as the accounts’ InternalTransferEvent activities (a contract’s by its ct_ id too)', async () => {
    const kinds = async (id: string): Promise<string[]> =>
      (
        (
          await v3.mdw.getAccountActivities(id as `ak_${string}`, {
            type: 'transfers',
            direction: 'forward',
            limit: 100,
          })
        ).data as unknown as Obj[]
      ).map((a) => `${String(a.height)}:${String((a.payload as Obj).kind)}`);
    expect(await kinds(fresh[0]!)).to.deep.equal(['2:accounts_minerva', '3:accounts_fortuna']);
    expect(await kinds(genesis[1]!.address)).to.deep.equal(['0:accounts_roma', '5:accounts_extra_lima']);
    expect(await kinds(forkContractId(contracts[0]!))).to.deep.equal(['5:contracts_lima']);
  });

  it('counts the forks in the total token supply, as the devnode’s balances add up', async () => {
    const top = v3.devnode.height();
    const totals = await v3.mdw.getTotalStats({ limit: 100, direction: 'forward' });
    // the totals at a height are those through the generation below it; the top's come with the next key block
    const last = (totals.data as unknown as Obj[]).at(-1)!;
    expect(Number(last.height)).to.equal(top);
    let held = 0n;
    for (const [, account] of v3.devnode.chain.state.accounts.entries()) held += account.balance;
    // no transaction burned a fee: what the accounts hold is what genesis, the forks and the key blocks created
    expect(last.totalTokenSupply).to.equal(held - KEY_BLOCK_REWARD);
  });

  it('rolls the forks back with their heights and lists them again once, as the node’s new blocks have them', async () => {
    const before = await transfers('');
    expect(before.filter((t) => FORK_KINDS.includes(t.kind))).to.have.length(8);
    await v3.devnode.fork(5);
    await v3.synced();
    expect(await transfers('')).to.deep.equal(before);
  });

  it('derives a fork’s transfers and the statistics after it from the stored rows when its files come after the chain passed it', async () => {
    const before = await transfers('');
    const supply = async (): Promise<bigint> =>
      ((await v3.mdw.getTotalStats({ limit: 1 })).data[0] as unknown as { totalTokenSupply: bigint }).totalTokenSupply;
    const expected = await supply();
    const rules = await transferRulesOf(loadConfig(v3.settings), { hyperchain: false });
    expect(await storedForksWithoutTransfers(v3.pool, rules)).to.deep.equal([]);
    // as a database written before LIMA_* were given: no Lima transfers, a supply without them
    const lima = ['accounts_lima', 'accounts_extra_lima', 'contracts_lima'];
    await v3.pool.query('DELETE FROM internal_transfers WHERE kind = ANY($1::text[])', [lima]);
    await v3.pool.query('UPDATE stats_generations SET minted = 0, sum_minted = 0 WHERE height >= 5');
    expect(await supply()).to.not.equal(expected);
    // what the populator does at its start (under its writer lock); its backfill then derives them
    expect(await backfillStoredForks(v3.pool, rules)).to.deep.equal([
      { protocol: Protocol.LIMA, height: 5, kinds: lima },
    ]);
    for (let i = 0; i < 200; i++) {
      const { rows } = await v3.pool.query('SELECT 1 FROM derive_backfill');
      if (rows.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await v3.pool.query('SELECT 1 FROM derive_backfill')).rows).to.deep.equal([]);
    expect(await transfers('')).to.deep.equal(before);
    expect(await supply()).to.equal(expected);
    expect(await storedForksWithoutTransfers(v3.pool, rules)).to.deep.equal([]);
  });
});
