/** @module Issue 44: the pure parts of `mdw dev`: the schema of a chain, its settings, its ports and its banner. */
import { encode, Encoding, MemoryAccount } from '@aeternity/aepp-sdk';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { loadConfig } from '../../../src/config/middleware.ts';
import { bannerLines, type BannerFacts } from '../../../src/cli/dev/banner.ts';
import { chainSchema, devSettings } from '../../../src/cli/dev/settings.ts';
import { choosePort, PortInUseError } from '../../../src/cli/free-port.ts';

const keyBlockHash = (): string => encode(randomBytes(32), Encoding.KeyBlockHash);
const GENESIS = keyBlockHash();
const FACTORY = 'ct_2mfj3FoZxnhkSw5RZMcP8BfPoB1QR4QiYGNCdkAvLZ1zfF6paW';
const WAE = 'ct_J3zBY8xxjsRr3QojETNw48Eb38fjvEuJKkQ6KzECvubvEcvCa';

describe('mdw dev: a schema per chain', () => {
  it('names a chain by its genesis hash, a devnode chain apart from a node of yours', () => {
    expect(chainSchema('devnode', GENESIS)).to.match(/^devnode_[0-9a-f]{16}$/);
    expect(chainSchema('node', GENESIS)).to.equal(chainSchema('devnode', GENESIS).replace('devnode_', 'node_'));
    const other = keyBlockHash();
    expect(chainSchema('devnode', other)).not.to.equal(chainSchema('devnode', GENESIS));
    expect(() => chainSchema('devnode', 'mh_x')).to.throw();
  });
});

describe('mdw dev: its settings', () => {
  const devnode = {
    internalUrl: 'http://127.0.0.1:3113',
    genesisAccountsFile: '/tmp/genesis.json',
    forkFiles: {},
    dex: { factory: FACTORY, wrappedAe: WAE },
  };
  const input = { databaseUrl: 'postgres://u:p@127.0.0.1:1/m', schema: 'devnode_00', nodeUrl: 'http://127.0.0.1:3013' };

  it("runs the middleware on the devnode's reward rules and DEX unless the environment says otherwise", () => {
    const { overrides, defaults } = devSettings({ ...input, devnode });
    const cfg = loadConfig(overrides, defaults);
    expect(cfg.rewardRules).to.equal('devnode');
    expect(cfg.dex).to.deep.include({ factory: FACTORY, wrappedAe: WAE });
    expect(cfg).to.deep.include({ databaseSchema: 'devnode_00', nodeInternalUrl: 'http://127.0.0.1:3113' });
    expect(loadConfig({ ...overrides, REWARD_RULES: 'mainnet' }, defaults).rewardRules).to.equal('mainnet');
  });

  it('keeps the global defaults of the chain for a node of yours', () => {
    const { overrides, defaults } = devSettings(input);
    const cfg = loadConfig(overrides, defaults);
    expect(cfg.rewardRules).to.equal(loadConfig({}).rewardRules);
    expect(cfg.dex).to.deep.equal(loadConfig({}).dex);
    expect(overrides).not.to.have.property('NODE_INTERNAL_URL');
  });

  // issue 77: the developer's webhook receiver is on localhost, which the sender refuses elsewhere (SSRF)
  it('delivers webhooks to loopback receivers, retries after a second and polls the node every 0.5 s, unless the environment says otherwise', () => {
    const { overrides, defaults } = devSettings(input);
    expect(loadConfig(overrides, defaults).webhooks).to.deep.include({ allowPrivate: true, retryInitialMs: 1000 });
    expect(loadConfig(overrides, defaults).pollIntervalMs).to.equal(500);
    expect(loadConfig({ ...overrides, WEBHOOKS_ALLOW_PRIVATE: 'false' }, defaults).webhooks.allowPrivate).to.equal(
      false,
    );
    expect(loadConfig(overrides).webhooks).to.deep.include({ allowPrivate: false, retryInitialMs: 60_000 });
  });
});

describe('mdw dev: its ports', () => {
  let held: Server;
  let port: number;
  before(async () => {
    held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    port = (held.address() as AddressInfo).port;
  });
  after(() => held.close());

  it('replaces a default that another process holds by a free port, and keeps a free one', async () => {
    const moved = await choosePort('127.0.0.1', { setting: 'PORT', port, explicit: false });
    expect(moved.replaced).to.equal(true);
    expect(moved.port).to.not.equal(port);
    expect(await choosePort('127.0.0.1', { setting: 'PORT', port: moved.port, explicit: true })).to.deep.equal({
      port: moved.port,
      replaced: false,
    });
    expect(await choosePort('127.0.0.1', { setting: '--port', port: 0, explicit: true })).to.deep.equal({
      port: 0,
      replaced: false,
    });
  });

  it('refuses a port the user gave that is taken, naming the flag', async () => {
    const refused = await choosePort('127.0.0.1', { setting: '--node-port', port, explicit: true }).catch(
      (err: unknown) => err,
    );
    expect(refused).to.be.instanceOf(PortInUseError);
    expect((refused as Error).message).to.contain(`port ${port} (--node-port) is in use by another process`);
  });
});

describe('mdw dev: its banner', () => {
  const account = MemoryAccount.generate();
  const facts: BannerFacts = {
    http: 'http://127.0.0.1:8081',
    websocket: 'ws://127.0.0.1:3021',
    node: { external: 'http://127.0.0.1:3014', internal: 'http://127.0.0.1:3114', devnode: true },
    databaseUrl: 'postgres://postgres:postgres@127.0.0.1:54321/middleware',
    embeddedDatabase: true,
    schema: 'devnode_00',
    settings: { DATABASE_SCHEMA: 'devnode_00', DEX_FACTORY: FACTORY },
    apiKeys: false,
    webhooksAllowPrivate: true,
    accounts: [{ publicKey: account.address, secretKey: account.secretKey, balance: 2n ** 64n + 1n }],
    dex: { factory: FACTORY, router: WAE, wrappedAe: WAE },
    movedPorts: [{ setting: 'PORT', from: 8080, to: 8081 }],
  };

  it('prints the URLs, GraphQL, the funded keys with exact balances, the moved ports and the way out', () => {
    const text = bannerLines(facts).join('\n');
    expect(text).to.contain(
      'GraphQL               http://127.0.0.1:8081/mdw/graphql   (GraphiQL: http://127.0.0.1:8081/mdw/graphiql)',
    );
    // 2^64 + 1 aettos: 18.446744073709551617 AE, not a rounded float
    expect(text).to.contain(`  ${account.address}  ${account.secretKey}  18.446744073709551617 AE`);
    expect(text).to.contain('port 8080 (PORT) was taken by another process: using 8081');
    expect(text).to.contain(`DEX                   factory ${FACTORY}`);
    expect(text).to.match(/DATABASE_SCHEMA=devnode_00 DEX_FACTORY=\S+ DATABASE_URL=postgres:\/\/postgres:postgres@/);
    expect(text).to.contain('The devnode runs no FATE code');
    expect(text).to.contain('to receivers on localhost too (WEBHOOKS_ALLOW_PRIVATE=true)');
    expect(text).to.contain('API keys are off: start with API_KEYS=on');
  });

  it('prints how to create an API key on this database when API keys are on', () => {
    const text = bannerLines({ ...facts, apiKeys: true }).join('\n');
    expect(text).to.match(
      /^ {2}DATABASE_SCHEMA=devnode_00 DEX_FACTORY=\S+ DATABASE_URL=postgres:\S+ node bin\/mdw\.js keys create --name me /m,
    );
    expect(text).not.to.contain('API keys are off');
  });

  it('masks the password of a database of your own, and says nothing of the devnode in front of your node', () => {
    const text = bannerLines({
      ...facts,
      node: { external: 'http://node.example:3013', devnode: false },
      databaseUrl: 'postgres://me:secret@db.example/mdw',
      embeddedDatabase: false,
      dex: undefined,
    } as BannerFacts).join('\n');
    expect(text).not.to.contain(':secret@');
    expect(text).to.contain('postgres://me:');
    expect(text).to.contain('node                  http://node.example:3013   (given with --node-url)');
    expect(text).not.to.contain('FATE');
    expect(text).not.to.contain('DEX ');
  });
});
