/** @module `mdw devnode`: a development æternity node (not a real node; it says so in /v2/status and /v3/status). */
import { Command, Flags } from '@oclif/core';
import { createLogger } from '../../base/log.ts';
import { runUntilSignal } from '../lifecycle.ts';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { HardForkFile } from '../../chain/hard-forks.ts';
import type { StakingRecord } from '../../devnode/index.ts';
import { HARD_FORK_FILE_VARIABLES } from '../../config/middleware.ts';
import { parseAccountFlag } from '../account-flag.ts';
import { setFlagsFromString } from 'node:v8';
import { parseQueueLimits, type QueueLimits } from '../../devnode/api/regulator.ts';

/**
 * HEAP_GROWING_PERCENT bounds how far the devnode process's old generation may grow past what its last full collection
 * kept before it collects again. V8 picks that factor itself, up to four times for a program that allocates fast, and
 * a devnode serving a pass over a large chain allocates fast (every answer is rendered from packed bytes): serving a
 * second pass over a tenth of mainnet, whose kept data is 3.8 GiB (1.26 GiB of world state and kept states on the
 * heap, 2.34 GiB of packed chain in buffers), its RSS reached 5.2 GiB, the rest garbage not yet collected. The price
 * is more full collections of a heap that holds little garbage (docs/devnode.md, "A chain at mainnet's scale").
 */
const HEAP_GROWING_PERCENT = 10;

export default class Devnode extends Command {
  static override summary = 'Run a development æternity node with the node HTTP API (external and internal ports).';
  static override description =
    'Accounts not given are generated and their secret keys printed, so you can sign with them. --no-mine is the pool-manager mode: no mining, but GET /v2/key-blocks/pending gives a candidate and POST /v2/key-blocks (internal port) accepts a completed block.';
  static override examples = [
    'mdw devnode',
    'mdw devnode --key-block-interval 5000 --micro-block-interval 1000',
    'mdw devnode --no-mine',
    'mdw devnode --generate 1000 --seed demo',
    'mdw devnode --generate 1000 --node-profile 7.2.2',
    'mdw devnode --generate 1000 --latency-ms 20 --http-read 32:1000 --http-update 32:1000',
    'mdw devnode --generate 1000 --gc-height 900',
    'mdw devnode --no-dry-run-endpoint --no-debug-endpoints --dry-run-timeout-ms 3000',
    'mdw devnode --hard-forks forks.json --hard-fork-files ./forks',
    'mdw devnode --generate 1000 --node-files ./node-files',
    'mdw devnode --hyperchain --generate 400 --epoch-length 10',
  ];
  static override flags = {
    port: Flags.integer({ description: 'external API port', default: 3013, min: 0, max: 65535 }),
    'internal-port': Flags.integer({
      description: 'internal API port (debug builders, POST /v2/key-blocks)',
      default: 3113,
      min: 0,
      max: 65535,
    }),
    host: Flags.string({ description: 'listen address', default: '127.0.0.1' }),
    'key-block-interval': Flags.integer({
      description: 'mine a key block every MS milliseconds (0: only on demand)',
      default: 10000,
      min: 0,
    }),
    'micro-block-interval': Flags.integer({
      description: 'put pending transactions in a micro block every MS milliseconds',
      default: 1000,
      min: 0,
    }),
    mine: Flags.boolean({
      description: 'mine automatically; --no-mine is the pool-manager mode',
      default: true,
      allowNo: true,
    }),
    beneficiary: Flags.string({ description: 'secret key (sk_… or hex) of the beneficiary; generated when absent' }),
    account: Flags.string({ description: 'prefunded account SECRET:BALANCE (repeatable)', multiple: true }),
    generate: Flags.integer({ description: 'start with a generated chain of N generations', min: 1 }),
    seed: Flags.string({ description: 'seed of the generated chain (with --generate)', default: 'devnode' }),
    'network-id': Flags.string({
      description: 'network id signatures are made for (default ae_devnet; hc_devnet with --hyperchain)',
    }),
    hyperchain: Flags.boolean({
      description:
        'a hyperchain: proof-of-stake epochs, a stake-weighted leader per height, holes, the staking and election contracts at genesis, /v3/hyperchain/*',
      default: false,
    }),
    'epoch-length': Flags.integer({
      description: 'with --hyperchain: key blocks per epoch',
      default: 10,
      min: 2,
      dependsOn: ['hyperchain'],
    }),
    'staking-record': Flags.string({
      description:
        "with --hyperchain: the record MainStaking's get_validator_state answers: response (ae_mdw 1.107's get_validator_response, with the delegates) or validator (the node's current record: total_balance, no delegates)",
      options: ['response', 'validator'] satisfies StakingRecord[],
      default: 'response',
      dependsOn: ['hyperchain'],
    }),
    'mainnet-like': Flags.boolean({
      description:
        "with --generate: mainnet's shape (quiet and busy eras, many small micro blocks, mostly spends and calls)",
      default: false,
    }),
    scale: Flags.custom<number>({
      description:
        "instead of --generate: a mainnet-like chain of this percentage of mainnet's generations (10: a tenth, about 114k generations and 6 M transactions) with hot spots of that size (an account of 1 M transactions at 10, a contract of 500k calls, a token of 100k holders, 500k names, a channel and an oracle of 50k updates and queries)",
      exclusive: ['generate'],
      parse: async (input) => {
        const percent = Number(input);
        if (input.trim() === '' || !(percent > 0 && percent <= 100))
          throw new Error(`--scale must be a percentage of mainnet, more than 0 and at most 100, got ${input}`);
        return percent;
      },
    })(),
    'token-share': Flags.custom<number>({
      description:
        'with --generate: the share (0–1) of transactions that are token, NFT and DEX calls and deployments (0: a chain without tokens; default about 0.1)',
      parse: async (input) => {
        const share = Number(input);
        if (input.trim() === '' || !(share >= 0 && share <= 1))
          throw new Error(`--token-share must be a number from 0 to 1, got ${input}`);
        return share;
      },
    })(),
    'made-up-txs': Flags.boolean({
      description:
        'with --generate, for tests: the mix also emits DevnodeMadeUpTx, a type no node has, as a later protocol adds one',
      default: false,
    }),
    'hc-votes': Flags.boolean({
      description: "with --generate: the mix also emits HCVoteTx, a hyperchain's epoch votes (a main chain has none)",
      default: false,
    }),
    'latency-ms': Flags.integer({
      description:
        "every answer takes MS milliseconds (±20 % jitter) from its turn in the node's queue, whatever its kind (instead of --node-profile's times)",
      min: 0,
    }),
    'node-profile': Flags.string({
      description:
        'service times of a recorded real node by endpoint kind and load, and its time per dry-run item, so that the devnode is as slow as it at the same concurrency (docs/devnode.md)',
      options: ['7.2.2'],
    }),
    'http-read': Flags.custom<QueueLimits>({
      description:
        "the node's http_read regulator (every GET): W requests running at once and Q waiting, the rest refused 503 at once (the node's default 5:100)",
      parse: async (input) => parseQueueLimits('--http-read', input),
    })(),
    'http-update': Flags.custom<QueueLimits>({
      description:
        "the node's http_update regulator (every POST: transactions, dry-runs): W running, Q waiting (the node's default 5:50)",
      parse: async (input) => parseQueueLimits('--http-update', input),
    })(),
    regulators: Flags.boolean({
      description:
        '--no-regulators: no request queues, every request served at once (an unbounded node, not a real one)',
      default: true,
      allowNo: true,
    }),
    'retry-after': Flags.integer({
      description: "a 503 refusal's Retry-After in seconds, as a node after 7.2.2 sends (3); 7.2.2 sends none",
      min: 0,
    }),
    'hard-forks': Flags.string({
      description:
        'a protocol schedule with hard forks, as the node\'s chain.hard_forks with the files inline: {"1": 0, "2": {"height": 2, "accounts": {"ak_…": 5}}, "4": {"height": 5, "extra_accounts": {…}, "contracts": {"ct_…": {…}}}, "6": 6, "7": 9} (protocols 1 to 7, Arcus; with --generate, Ceres or later from height 1: {"6": 0, "7": 500})',
    }),
    'hard-fork-files': Flags.string({
      description:
        "write the forks' accounts and contracts here as the node's files, for the middleware's MINERVA_ACCOUNTS_FILE, …",
      dependsOn: ['hard-forks'],
    }),
    'node-files': Flags.string({
      description:
        "write the chain's genesis accounts and hard-fork files here as the node's data directory holds them, for the middleware's GENESIS_ACCOUNTS_FILE, MINERVA_ACCOUNTS_FILE, … (each printed as VARIABLE=path before the API line)",
    }),
    'dry-run-endpoint': Flags.boolean({
      description:
        "serve the external POST /v2|v3/dry-run (the node's http.endpoints.dry-run, off by default on a node); --no-dry-run-endpoint: 404, as such a node",
      default: true,
      allowNo: true,
    }),
    'debug-endpoints': Flags.boolean({
      description:
        "serve the internal /v2|v3/debug/* endpoints, the debug dry-run included (the node's http.internal.debug_endpoints); --no-debug-endpoints: 403 with no body, as such a node",
      default: true,
      allowNo: true,
    }),
    'dry-run-timeout-ms': Flags.integer({
      description:
        "both dry-runs' time limit (the node's http.dry_run.timeout_ms): past it 400 'Bad request: dry-run exceeded time limit'; 0: unbounded. With --node-profile a dry-run's time is its items' at the recorded node's pace (1000 calls: refused), else the devnode's own",
      default: 3000,
      min: 0,
    }),
    'gc-height': Flags.integer({
      description: 'a pruning node: state reads below height H (call info, account at a block, dry-run) answer 410',
      min: 0,
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Devnode);
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    const logger = createLogger(
      { logDir: undefined, logLevel: 'info', logPretty: process.stdout.isTTY === true },
      'devnode',
    );
    const { startDevnode, hardForkFilesJson, parseHardForkSchedule, scaleChain } =
      await import('../../devnode/index.ts');
    let accounts;
    let hardForks;
    try {
      accounts = (flags.account ?? []).map(parseAccountFlag);
      if (flags['hard-forks']) hardForks = parseHardForkSchedule(await readFile(flags['hard-forks'], 'utf8'));
    } catch (err) {
      this.error((err as Error).message, { exit: 2 });
    }
    const node = await startDevnode(
      {
        host: flags.host,
        port: flags.port,
        internalPort: flags['internal-port'],
        keyBlockIntervalMs: flags['key-block-interval'],
        microBlockIntervalMs: flags['micro-block-interval'],
        mine: flags.mine,
        ...(flags['network-id'] ? { networkId: flags['network-id'] } : {}),
        ...(flags.hyperchain
          ? {
              hyperchain: {
                epochLength: flags['epoch-length'],
                stakingRecord: flags['staking-record'] as StakingRecord,
              },
            }
          : {}),
        ...(flags['latency-ms'] === undefined ? {} : { latencyMs: flags['latency-ms'] }),
        ...(flags['node-profile'] ? { nodeProfile: flags['node-profile'] } : {}),
        regulators: flags.regulators && {
          ...(flags['http-read'] ? { httpRead: flags['http-read'] } : {}),
          ...(flags['http-update'] ? { httpUpdate: flags['http-update'] } : {}),
        },
        ...(flags['retry-after'] === undefined ? {} : { overloadRetryAfter: flags['retry-after'] }),
        gcHeight: flags['gc-height'],
        dryRunEndpoint: flags['dry-run-endpoint'],
        debugEndpoints: flags['debug-endpoints'],
        dryRunTimeoutMs: flags['dry-run-timeout-ms'],
        ...(flags.beneficiary ? { beneficiarySecret: flags.beneficiary } : {}),
        ...(accounts.length > 0 ? { accounts } : {}),
        ...(hardForks ? { hardForks } : {}),
        ...(flags.generate || flags.scale
          ? {
              generate: {
                ...(flags.scale ? scaleChain(flags.scale) : { generations: flags.generate! }),
                seed: flags.seed,
                ...(flags['mainnet-like'] || flags.scale ? { profile: 'mainnet-like' as const } : {}),
                ...(flags['token-share'] === undefined ? {} : { tokenShare: flags['token-share'] }),
                ...(flags['made-up-txs'] ? { madeUpTxs: true } : {}),
                ...(flags['hc-votes'] ? { hcVotes: true } : {}),
              },
            }
          : {}),
      },
      logger.log,
    );
    // before the API line: a process waiting for that line finds the files written
    if (flags['node-files']) {
      const { writeNodeFiles } = await import('../dev/node-files.ts');
      const files = await writeNodeFiles(resolve(flags['node-files']), node.chain);
      this.log(`GENESIS_ACCOUNTS_FILE=${files.genesisAccountsFile}`);
      for (const [variable, path] of Object.entries(files.forkFiles)) this.log(`${variable}=${path}`);
    }
    this.log(`devnode external API: ${node.externalUrl}  internal API: ${node.internalUrl}`);
    const filesDir = flags['hard-fork-files'];
    if (filesDir) {
      await mkdir(filesDir, { recursive: true });
      for (const [file, text] of Object.entries(hardForkFilesJson(node.chain.schedule)) as [HardForkFile, string][]) {
        const path = resolve(filesDir, `${file}.json`);
        await writeFile(path, text);
        this.log(`${HARD_FORK_FILE_VARIABLES[file]}=${path}`);
      }
    }
    if (accounts.length === 0) {
      this.log('prefunded accounts (public key, secret key):');
      for (const a of node.accounts) this.log(`  ${a.publicKey}  ${a.secretKey}`);
    }
    await runUntilSignal([node], logger);
  }
}
