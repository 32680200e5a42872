import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { encode } from '../../../src/chain/encoding.ts';
import type { Json } from '../../../src/chain/json.ts';
import { ConfigError } from '../../../src/config/env-reader.ts';
import { generationFees, loadHardForkFiles } from '../../../src/indexer/derived/internal-transfers.ts';
import type { GenerationRows } from '../../../src/indexer/rows/rows.ts';

type Obj = { [key: string]: Json };
const rows = (
  txs: { hash: string; tx: Obj }[],
  gas: Record<string, number>,
  forcedGas: Record<string, string | null> = {},
): GenerationRows =>
  ({
    transactions: txs.map((t, i) => ({ height: 5, microIndex: 0, txIndex: i, txHash: t.hash, tx: t.tx })),
    contractCalls: Object.entries(gas).map(([txHash, used]) => ({ txHash, callInfo: { gas_used: used } })),
    channelEvents: Object.entries(forcedGas).map(([txHash, gasUsed]) => ({ txHash, gasUsed })),
  }) as unknown as GenerationRows;

describe('generationFees (what the node pays out of a generation)', () => {
  it("sums every fee, inner transactions' included, and each call's gas used times its price", () => {
    const spend = { type: 'SpendTx', fee: 20_000 };
    const call = { type: 'ContractCallTx', fee: 100_000, gas_price: 1_000_000_000 };
    const paid = {
      type: 'PayingForTx',
      fee: 5,
      tx: { signatures: [], tx: { type: 'ContractCreateTx', fee: 7, gas_price: 2 } },
    };
    const gen = rows(
      [
        { hash: 'th_spend', tx: spend },
        { hash: 'th_call', tx: call },
        { hash: 'th_paid', tx: paid },
      ],
      { th_call: 300, th_paid: 11 },
    );
    expect(generationFees(gen, new Map())).to.equal(20_000n + 100_000n + 300n * 1_000_000_000n + 5n + 7n + 11n * 2n);
  });

  it("counts generalized accounts' own gas from their GA calls, and no failed inner transaction's fee (issue 89)", () => {
    const attach = { type: 'GAAttachTx', fee: 80_000, gas_price: 1_000_000_000 };
    const inner = { type: 'SpendTx', fee: 20_000 };
    const meta = { type: 'GAMetaTx', fee: 50_000, gas_price: 2, tx: { signatures: [], tx: inner } };
    const gen = rows(
      [
        { hash: 'th_attach', tx: attach },
        { hash: 'th_ok', tx: meta },
        { hash: 'th_failed', tx: meta },
        { hash: 'th_pruned', tx: meta },
      ],
      {},
    );
    // by position (ga_calls): the last one's info the node no longer held
    const gaCalls = new Map([
      ['5:0:0', { gasUsed: 700n, ok: true }],
      ['5:0:1', { gasUsed: 40n, ok: true }],
      ['5:0:2', { gasUsed: 41n, ok: false }],
      ['5:0:3', { gasUsed: null, ok: null }],
    ]);
    expect(generationFees(gen, gaCalls)).to.equal(
      80_000n + 700n * 1_000_000_000n + (50_000n + 80n + 20_000n) + (50_000n + 82n) + (50_000n + 20_000n),
    );
  });

  it("counts a force progress's call's gas (its channel event's) at its update's gas price, wrapped too (issue 88)", () => {
    const progress = { type: 'ChannelForceProgressTx', fee: 30_000, update: { gas_price: 3 } };
    const paid = { type: 'PayingForTx', fee: 5, tx: { signatures: [], tx: progress } };
    const gen = rows(
      [
        { hash: 'th_plain', tx: progress },
        { hash: 'th_paid', tx: paid },
        { hash: 'th_pruned', tx: progress },
      ],
      {},
      // the last one's info the node no longer held: its gas is not known
      { th_plain: '1000', th_paid: '2000', th_pruned: null },
    );
    expect(generationFees(gen, new Map())).to.equal(30_000n + 3000n + (5n + 30_000n + 6000n) + 30_000n);
  });

  it('keeps integers above 2^53 exact', () => {
    const fee = 2n ** 60n + 1n;
    expect(generationFees(rows([{ hash: 'th_a', tx: { type: 'SpendTx', fee } }], {}), new Map())).to.equal(fee);
  });
});

describe('loadHardForkFiles (the node’s fork files)', () => {
  const ak = encode('ak', new Uint8Array(32).fill(7));
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mdw-forks-'));
    await writeFile(join(dir, 'minerva.json'), `{"${ak}": 12345678901234567890123}`);
    await writeFile(join(dir, 'bad.json'), '{"ak_nope": 1}');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the configured files, by the protocol whose fork credits them', async () => {
    const credits = await loadHardForkFiles({ minervaAccounts: join(dir, 'minerva.json') });
    expect([...credits]).to.deep.equal([
      [2, [{ kind: 'accounts_minerva', account: ak, amount: 12345678901234567890123n }]],
    ]);
  });

  it('fails the start naming every bad file’s variable', async () => {
    const err = await loadHardForkFiles({
      limaAccounts: join(dir, 'bad.json'),
      fortunaAccounts: join(dir, 'missing.json'),
      minervaAccounts: join(dir, 'minerva.json'),
    }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    expect(problems).to.have.length(2);
    expect(problems[0]).to.match(/^LIMA_ACCOUNTS_FILE: .*bad\.json: not a valid ak_ id: ak_nope$/);
    expect(problems[1]).to.match(/^FORTUNA_ACCOUNTS_FILE: .*missing\.json: .*ENOENT/);
  });
});
