/**
 * @module `mdw -v --full` compares the derived state at the top with the chain's own (contracts' dry-runs, the node's
 * names, oracles, channels and accounts), so that a wrong derivation rule shows, which a re-derivation with the same
 * rule cannot show; `mdw -v --state` does that comparison alone. The devnode's own state is the oracle of each side a
 * difference names. One case runs `--full` end to end; the others `--state` (the same comparison, without reading
 * every height and re-deriving the chain), in process but for one run of the binary (its summary and exit status).
 */
import { expect } from 'chai';
import prom from 'prom-client';
import type { Logger } from 'pino';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { verifyChain, type VerifyReport } from '../../../src/indexer/maintenance/verify.ts';
import { deriveStoredTokens } from '../../../src/indexer/derived/derive-tokens.ts';
import { aexnRows } from '../../../src/indexer/rows/aexn-rows.ts';
import { contractReaders } from '../../../src/indexer/contracts/aexn-detector.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { createWritePool, withTransaction } from '../../../src/db/connection/pool.ts';
import type { FetchedGeneration } from '../../../src/indexer/rows/rows.ts';
import type { Config } from '../../../src/config/middleware.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { balanceKey, ledgerBalances, wrappedAe } from '../../support/aex9-truth.ts';
import { devnodeBalances } from '../../support/ae-balances-truth.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';
import { runMdw } from '../../support/dev-run.ts';
import { startHarness, silent, type Harness } from './support/harness.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { capturedLog } from '../../support/captured-log.ts';

/**
 * The chain: uniform blocks, one transaction in four a token's (AEX-9, AEX-141, the DEX); 60 generations hold every
 * kind of entry the state check compares (the clean case asserts each was there), pointed names and oracles among them.
 */
const CHAIN = { generations: 60, seed: 'verify-state', tokenShare: 0.25 } as const;

/** A line of the state check that names a difference (the re-derivation's lines begin with `derived`). */
const STATE_DIFFERENCE = /^(aex9|aex141|name|oracle|channel|account) \S+: .* differs: db .* node .*$/;

describe('verify --full and --state against the chain state (contracts, names, oracles, channels, accounts)', function () {
  this.timeout(600_000);
  let h: Harness;
  let cfg: Config;

  before(async () => {
    const { generations, seed, tokenShare } = CHAIN;
    h = await startHarness(generations, seed, { tokenShare });
    // the harness names the chain's wrapped AE, as a configured network does: the clean chain holds no difference
    expect(wrappedAe(h.devnode.chain)).to.not.equal('');
    cfg = h.config();
    const populator = await startPopulator({ cfg, log: silent, registry: new prom.Registry() });
    await populator.synced();
    await populator.stop();
  });
  after(async () => {
    await h.close();
  });

  /** verify runs `-v --state` (`-v --full` with `full`), as the CLI calls it, with the lines it prints */
  async function verify(
    opts: { sample?: number; cfg?: Config; full?: boolean; log?: Logger } = {},
  ): Promise<{ lines: string[]; report: VerifyReport }> {
    const lines: string[] = [];
    const report = await verifyChain(
      { cfg: opts.cfg ?? cfg, log: opts.log ?? silent, out: (l) => lines.push(l) },
      opts.full ? { full: true, sample: opts.sample } : { state: true, sample: opts.sample },
    );
    return { lines, report };
  }

  /** rederiveTokens derives the token area of the whole chain again with `rule`. */
  async function rederiveTokens(rule: (gen: FetchedGeneration) => ReturnType<typeof aexnRows>): Promise<void> {
    const pool = createWritePool(cfg, 'verify-state-test', silent, 2);
    try {
      const node = new NodeClient({ url: cfg.nodeUrls, timeoutMs: cfg.nodeTimeoutMs }, silent);
      const { aexn } = contractReaders(cfg, pool, node);
      await withTransaction(pool, (db) => deriveStoredTokens(db, aexn, 0, h.devnode.height(), undefined, rule));
    } finally {
      await pool.end();
    }
  }

  it('finds nothing on a clean chain, having compared every kind of entry with the chain, saying how far it is', async () => {
    const { log, lines: logged } = capturedLog();
    // a progress line at every step (issue 57)
    const { lines, report } = await verify({
      cfg: h.config({ ...FULL_VERIFY_BATCH, PROGRESS_LOG_MS: '0' }),
      log,
      full: true,
    });
    const progress = (msg: string) => logged.filter((l) => l.msg === msg && l.done !== undefined);
    const ended = (msg: string) =>
      progress(msg)
        .map((l) => [l.done, l.total])
        .at(-1);
    const heights = h.devnode.height() + 1;
    expect(ended('verify: heights compared with the node')).to.deep.equal([heights, heights]);
    expect(progress('heights reloaded').every((l) => typeof l.scratch === 'string')).to.equal(true);
    expect(ended('heights reloaded')).to.deep.equal([heights, heights]);
    const tables = ended('verify --full: derived tables compared with the re-derived ones')!;
    expect(tables[0]).to.equal(tables[1]);
    const state = progress('verify: state compared with the chain');
    for (const c of report.state)
      expect(
        state.filter((l) => l.what === c.what).map((l) => l.done),
        c.what,
      ).to.deep.equal(Array.from({ length: c.items }, (_, i) => i + 1));
    expect(lines).to.deep.equal([]);
    expect(report.differences).to.equal(0);
    expect(report.unverifiable).to.equal(0);
    expect([report.checked, report.stateAt]).to.deep.equal([h.devnode.height() + 1, h.devnode.height()]);
    // --state compares the same entries, and reads no height; each kind's time is its own: together no more than
    // the whole check took
    const started = performance.now();
    const alone = await verify();
    const took = performance.now() - started;
    expect(alone.report.state.reduce((ms, c) => ms + c.ms, 0)).to.be.at.most(took + alone.report.state.length);
    expect(alone.lines).to.deep.equal([]);
    expect([alone.report.checked, alone.report.stateAt, alone.report.differences]).to.deep.equal([
      0,
      h.devnode.height(),
      0,
    ]);
    const counted = (r: VerifyReport) => r.state.map(({ what, items, requests }) => ({ what, items, requests }));
    expect(counted(alone.report)).to.deep.equal(counted(report));
    const compared = new Map(report.state.map((c) => [c.what, c]));
    expect([...compared.keys()]).to.deep.equal([
      'AEX-9 tokens',
      'AEX-141 collections',
      'names',
      'oracles',
      'channels',
      'accounts',
    ]);
    // each kind was there to compare, and was asked of the node
    for (const c of report.state) expect(c.items * c.requests, c.what).to.be.greaterThan(0);
    const [{ n }] = (await h.query<{ n: string }>('mdw', 'SELECT count(*) AS n FROM account_wealth')) as [
      { n: string },
    ];
    expect(compared.get('accounts')!.items).to.equal(Number(n));
  });

  it('finds a derivation rule made wrong: AEX-9 balances against the contracts, with both sides', async () => {
    // a rule that forgets transfers: the re-derivation of -v --full, sharing the rule, could not tell
    await rederiveTokens((gen) => {
      const rows = aexnRows(gen);
      return { ...rows, aex9Logs: rows.aex9Logs.filter((l) => l.kind !== 'transfer') };
    });
    try {
      const { lines, report } = await verify();
      const found = lines.filter((l) => l.startsWith('aex9 ') && l.includes(' differs: '));
      expect(found.length).to.be.greaterThan(0);
      expect(report.differences).to.be.greaterThanOrEqual(found.length);
      const ledger = ledgerBalances(h.devnode.chain);
      for (const line of found) {
        const [, token, account, db, node] = /^aex9 (ct_\w+): balance of (ak_\w+) differs: db (-?\d+) node (\d+)$/.exec(
          line,
        )!;
        // the node's side is the contract's own state, the database's side the row it serves
        expect(BigInt(node!), line).to.equal(ledger.get(balanceKey(token!, account!)) ?? 0n);
        const rows = await h.query<{ amount: string }>(
          'mdw',
          'SELECT amount::text AS amount FROM aex9_balances WHERE contract_id = $1 AND account = $2',
          [token, account],
        );
        expect(BigInt(rows[0]?.amount ?? 0), line).to.equal(BigInt(db!));
      }
    } finally {
      await rederiveTokens(aexnRows);
    }
    expect((await verify()).lines).to.deep.equal([]);
  });

  it('finds rows changed in the database (a balance, an owner, a pointer, an AE balance), naming both sides', async () => {
    const chain = h.devnode.chain;
    const named = [...chain.state.names.entries()]
      .map(([, n]) => n)
      .filter((n) => n.expires >= chain.height && n.revokedAt === undefined);
    const pointed = named.find((n) => n.pointers.length > 0)!;
    const owned = named.find((n) => n !== pointed)!;
    const someone = [...chain.state.accounts.entries()].map(([id]) => id).find((id) => id !== owned.owner)!;
    const [balance] = await h.query<{ contract_id: string; account: string; amount: string }>(
      'mdw',
      `UPDATE aex9_balances SET amount = amount + 1
        WHERE (contract_id, account) = (SELECT contract_id, account FROM aex9_balances WHERE amount > 0
                                         ORDER BY contract_id, account LIMIT 1)
        RETURNING contract_id, account, amount::text AS amount`,
    );
    await h.query('mdw', 'UPDATE name_state SET owner = $2 WHERE name = $1', [owned.name, someone]);
    const [{ pointers: stored }] = (await h.query<{ pointers: unknown }>(
      'mdw',
      `UPDATE name_state s SET pointers = '[]' FROM (SELECT name, pointers FROM name_state WHERE name = $1) o
        WHERE s.name = o.name RETURNING o.pointers`,
      [pointed.name],
    )) as [{ pointers: unknown }];
    const [account] = await h.query<{ account_id: string; balance: string }>(
      'mdw',
      `UPDATE account_wealth SET balance = balance + 7
        WHERE account_id = (SELECT account_id FROM account_wealth ORDER BY account_id LIMIT 1)
        RETURNING account_id, balance::text AS balance`,
    );
    try {
      // in process (the binary's run, its summary and exit status, is the last case's, where an owner and a balance
      // are changed too)
      const { lines, report } = await verify();
      expect(report.differences, lines.join('\n')).to.equal(4);
      const ledger = ledgerBalances(chain).get(balanceKey(balance!.contract_id, balance!.account));
      const pointers = pointed.pointers.map((p) => `${p.key}=${p.id}`).join(' ');
      expect(lines.filter((l) => STATE_DIFFERENCE.test(l))).to.have.members([
        `aex9 ${balance!.contract_id}: balance of ${balance!.account} differs: db ${balance!.amount} node ${ledger}`,
        `name ${owned.name}: owner differs: db ${someone} node ${owned.owner}`,
        `name ${pointed.name}: pointers differs: db  node ${pointers}`,
        `account ${account!.account_id}: balance differs: db ${account!.balance} ` +
          `node ${chain.state.accounts.get(account!.account_id)!.balance}`,
      ]);
    } finally {
      await h.query('mdw', 'UPDATE aex9_balances SET amount = amount - 1 WHERE contract_id = $1 AND account = $2', [
        balance!.contract_id,
        balance!.account,
      ]);
      await h.query('mdw', 'UPDATE name_state SET owner = $2 WHERE name = $1', [owned.name, owned.owner]);
      await h.query('mdw', 'UPDATE name_state SET pointers = $2 WHERE name = $1', [
        pointed.name,
        JSON.stringify(stored),
      ]);
      await h.query('mdw', 'UPDATE account_wealth SET balance = balance - 7 WHERE account_id = $1', [
        account!.account_id,
      ]);
    }
    expect((await verify()).lines).to.deep.equal([]);
  });

  it('--sample compares that many accounts, drawn at random', async () => {
    const { lines, report } = await verify({ sample: 5 });
    expect(lines).to.deep.equal([]);
    // each at the top, and its derived balance at two past heights against the node's there (issue 76)
    expect(report.state.find((c) => c.what === 'accounts (a sample of 5)')).to.include({ items: 5, requests: 15 });
  });

  it('with the node ahead of the verified top, still compares what its new blocks leave alone', async () => {
    const top = h.devnode.height();
    await h.devnode.mineKeyBlock();
    await h.devnode.mineKeyBlock();
    const [name] = await h.query<{ name: string; owner: string }>(
      'mdw',
      `SELECT name, owner FROM name_state
        WHERE kind <> 'revoke' AND expires_at > $1 + 2 AND auction_end_height < $1 ORDER BY name LIMIT 1`,
      [top],
    );
    const someone = [...h.devnode.chain.state.accounts.entries()].map(([id]) => id).find((id) => id !== name!.owner)!;
    // the stored heights stop at `top`: the state is compared there, names at the node's top two heights above
    expect((await verify()).lines).to.deep.equal([]);
    await h.query('mdw', 'UPDATE name_state SET owner = $2 WHERE name = $1', [name!.name, someone]);
    try {
      const { lines } = await verify();
      expect(lines.filter((l) => STATE_DIFFERENCE.test(l))).to.deep.equal([
        `name ${name!.name}: owner differs: db ${someone} node ${name!.owner}`,
      ]);
    } finally {
      await h.query('mdw', 'UPDATE name_state SET owner = $2 WHERE name = $1', [name!.name, name!.owner]);
    }
  });

  describe('against a pruning node (the same chain, its state garbage-collected)', () => {
    let pruning: Devnode;
    before(async () => {
      const { generations, seed, tokenShare } = CHAIN;
      pruning = await startGeneratedDevnode(
        { generations, microBlocksPerGeneration: 2, txsPerMicroBlock: 4, seed, tokenShare },
        { gcHeight: generations + 10 },
      );
    });
    after(async () => {
      await pruning.stop();
    });

    it('notes the garbage-collected states as PRUNED and counts no difference of state', async () => {
      const { lines, report } = await verify({ cfg: { ...cfg, nodeUrls: [pruning.externalUrl] } });
      expect(lines.filter((l) => STATE_DIFFERENCE.test(l) || / not read: /.test(l))).to.deep.equal([]);
      expect(report.differences).to.equal(0);
      expect(lines).to.include.members([
        `${(await h.query('mdw', 'SELECT 1 FROM account_wealth')).length} account balance(s) unverifiable: ` +
          `every node answered 410 at ${await storedTopBlock()}`,
      ]);
      expect(
        lines.some((l) => /^aex9 ct_\w+: unverifiable: PRUNED: every node had garbage-collected the state/.test(l)),
      ).to.equal(true);
    });

    it('tells a token stored without its balances at creation: pruned there, or a difference where the node answers', async () => {
      const [token] = await h.query<{ contract_id: string; hash: string }>(
        'mdw',
        `UPDATE aexn_contracts c SET balances_unknown = true
          WHERE contract_id = (SELECT contract_id FROM aexn_contracts
                                WHERE aexn_type = 'aex9' AND NOT balances_unknown ORDER BY contract_id DESC LIMIT 1)
         RETURNING contract_id,
                   (SELECT hash FROM micro_blocks m WHERE m.height = c.height AND m.micro_index = c.micro_index) AS hash`,
      );
      try {
        const answered = await verify();
        expect(answered.lines).to.deep.equal([
          `aex9 ${token!.contract_id}: balances at creation stored as unread, yet the node answers balances() at its ` +
            `creation block ${token!.hash}: not a pruned state (the token's balances are incomplete)`,
        ]);
        expect(answered.report.differences).to.equal(1);
        const pruned = await verify({ cfg: { ...cfg, nodeUrls: [pruning.externalUrl] } });
        expect(pruned.lines).to.include(
          `aex9 ${token!.contract_id}: unverifiable: PRUNED: every node had garbage-collected the state at ` +
            `${token!.hash} (its balances at creation were stored as unread)`,
        );
        expect(pruned.report.differences).to.equal(0);
      } finally {
        await h.query('mdw', 'UPDATE aexn_contracts SET balances_unknown = false WHERE contract_id = $1', [
          token!.contract_id,
        ]);
      }
    });
  });

  describe('against a node that will not read some tokens (a failing call, a refusal, a crash)', () => {
    let proxy: FaultProxy;
    let tokens: [string, string, string];
    before(async () => {
      proxy = await startFaultProxy(h.devnode.externalUrl);
      const rows = await h.query<{ contract_id: string }>(
        'mdw',
        "SELECT contract_id FROM aexn_contracts WHERE aexn_type = 'aex9' AND NOT balances_unknown ORDER BY contract_id LIMIT 3",
      );
      tokens = rows.map((r) => r.contract_id) as [string, string, string];
      expect(tokens).to.have.length(3);
      const [wrongAbi, refused, crashed] = tokens;
      const unknownBlock = encode('kh', Buffer.alloc(32, 9));
      proxy.rewrite(/\/dry-run$/, (body) => {
        // as the middleware asked before issue 87: no ABI, which a node runs as AEVM's and refuses for FATE code
        if (body.includes(wrongAbi)) return body.replace(/,"abi_version":3/g, '');
        // a block the node does not know: its 400
        if (body.includes(refused)) return body.replace(/"top":"\w+"/, `"top":"${unknownBlock}"`);
        // an item the node's handler crashes on: its 500, every round
        if (body.includes(crashed)) return '{"txs":[{"nope":1}]}';
        return body;
      });
    });
    after(async () => {
      await proxy.close();
    });

    // one run, of the binary: what it prints and its exit status are what a user reads of such a node
    it('fails on each, saying what kept it from reading them, and calls none of them pruned; exits 1 from the binary, its summary counting them as differences, with the differences of rows changed in the database', async () => {
      const top = await storedTopBlock();
      // an account's balance and a name's owner changed in the database too: the binary prints each difference, then
      // the summary, and exits 1 (the file's one run of the binary: another cost ~0.9 CPU-s). The node is ahead of
      // the stored top by two empty key blocks (an earlier case's): balances are compared at the stored top, names at
      // the node's top (a name that lives past both, as that case picks one)
      const chain = h.devnode.chain;
      const [{ stored }] = (await h.query<{ stored: number }>(
        'mdw',
        'SELECT max(height) AS stored FROM key_blocks',
      )) as [{ stored: number }];
      const [owned] = (await h.query<{ name: string; owner: string }>(
        'mdw',
        `SELECT name, owner FROM name_state
          WHERE kind <> 'revoke' AND expires_at > $1 AND auction_end_height < $2 ORDER BY name LIMIT 1`,
        [chain.height, stored],
      )) as [{ name: string; owner: string }];
      const someone = [...chain.state.accounts.entries()].map(([id]) => id).find((id) => id !== owned.owner)!;
      await h.query('mdw', 'UPDATE name_state SET owner = $2 WHERE name = $1', [owned.name, someone]);
      const [account] = await h.query<{ account_id: string; balance: string }>(
        'mdw',
        `UPDATE account_wealth SET balance = balance + 7
          WHERE account_id = (SELECT account_id FROM account_wealth ORDER BY account_id LIMIT 1)
          RETURNING account_id, balance::text AS balance`,
      );
      let run: { code: number | null; output: string };
      try {
        run = await runMdw(['-v', '--state'], {
          NODE_URL: proxy.url,
          DATABASE_URL: h.db.url,
          DATABASE_SCHEMA: 'mdw',
          DEX_WRAPPED_AE: wrappedAe(chain),
          FETCH_CONCURRENCY: '4',
          LOG_LEVEL: 'silent',
        });
      } finally {
        await h.query('mdw', 'UPDATE name_state SET owner = $2 WHERE name = $1', [owned.name, owned.owner]);
        await h.query('mdw', 'UPDATE account_wealth SET balance = balance - 7 WHERE account_id = $1', [
          account!.account_id,
        ]);
      }
      const { code, output } = run;
      expect(code, output).to.equal(1);
      const lines = output.trim().split('\n');
      expect(lines.filter((l) => STATE_DIFFERENCE.test(l))).to.have.members([
        `name ${owned.name}: owner differs: db ${someone} node ${owned.owner}`,
        `account ${account!.account_id}: balance differs: db ${account!.balance} ` +
          `node ${devnodeBalances(chain, stored).get(account!.account_id)}`,
      ]);
      // and what each kind cost, one line each
      expect(
        lines.map((l) => /^state of \d+ (.*) compared with the chain: \d+ node request\(s\), \d+ ms$/.exec(l)?.[1]),
      ).to.include.members(['AEX-9 tokens', 'AEX-141 collections', 'names', 'oracles', 'channels', 'accounts']);
      const [wrongAbi, refused, crashed] = tokens;
      expect(lines.filter((l) => / not read: /.test(l))).to.have.members([
        `aex9 ${wrongAbi}: not read: CALL FAILED: balances() at ${top}: Internal error: wrong_abi_version`,
        `aex9 ${refused}: not read: REFUSED: every node refused a dry-run at ${top}`,
        `aex9 ${crashed}: not read: CRASHED: dry-run at ${top} failed: node answered the dry-run: 500 ` +
          '{"reason":"Internal server error"} (every round)',
      ]);
      expect(lines.filter((l) => /unverifiable|pruned|PRUNED/.test(l))).to.deep.equal([]);
      // 3 differences and the 2 changed rows, and, with no suffix, none unverifiable
      expect(lines.filter((l) => l.startsWith('verified '))).to.deep.equal([
        `verified the state at height ${stored}: 5 difference(s)`,
      ]);
    });
  });

  /** storedTopBlock is the last stored block: the verified top's, at which the state is asked. */
  async function storedTopBlock(): Promise<string> {
    const [{ hash }] = (await h.query<{ hash: string }>(
      'mdw',
      `SELECT coalesce((SELECT hash FROM micro_blocks WHERE height = k.height ORDER BY micro_index DESC LIMIT 1),
                       k.hash) AS hash
         FROM key_blocks k ORDER BY height DESC LIMIT 1`,
    )) as [{ hash: string }];
    return hash;
  }
});
