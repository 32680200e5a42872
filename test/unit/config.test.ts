import { expect } from 'chai';
import { ConfigError } from '../../src/config/env-reader.ts';
import { DEFAULTS } from '../../src/config/defaults.ts';
import { DEV_DEFAULTS, loadConfig, redactUrl } from '../../src/config/middleware.ts';
import { loadKubeSettings, loadOperatorConfig } from '../../src/config/cluster.ts';

describe('loadConfig(env)', () => {
  it('applies the documented defaults to an empty environment', () => {
    const cfg = loadConfig({});
    expect(cfg.nodeUrl).to.equal(DEFAULTS.NODE_URL);
    expect(cfg.nodeUrls).to.deep.equal([DEFAULTS.NODE_URL]);
    expect(cfg.statusMaxBlockAge).to.equal(900);
    expect(cfg.websocket).to.deep.equal({ host: '0.0.0.0', port: 3020 });
    expect(cfg.port).to.equal(8080);
    expect(cfg.forkWindow).to.equal(30);
    expect(cfg.compilerUrl).to.equal(undefined);
    expect(cfg.nodeInternalUrl).to.equal(undefined);
    expect(cfg.apiCacheMaxBytes).to.equal(64 * 1024 * 1024);
    expect(cfg.dex).to.deep.equal({
      factory: 'ct_2mfj3FoZxnhkSw5RZMcP8BfPoB1QR4QiYGNCdkAvLZ1zfF6paW',
      wrappedAe: 'ct_J3zBY8xxjsRr3QojETNw48Eb38fjvEuJKkQ6KzECvubvEcvCa',
    });
    expect(Object.isFrozen(cfg)).to.equal(true);
  });

  it('reads every variable of the seed', () => {
    const cfg = loadConfig({
      NODE_URL: 'http://node:3013/',
      COMPILER_URL: 'http://compiler:3080',
      PID_FILE: '/run/mdw.pid',
      LOG_DIR: '/var/log/mdw',
      DATABASE_URL: 'postgresql://u:p@db/mdw',
      STATUS_MAX_BLOCK_AGE: '60',
      WEBSOCKET_ADDRESS: '127.0.0.1:4000',
      NODE_INTERNAL_URL: 'http://node:3113',
      DATABASE_SCHEMA: 'mdw_g2',
    });
    expect(cfg.nodeUrl).to.equal('http://node:3013');
    expect(cfg.compilerUrl).to.equal('http://compiler:3080');
    expect(cfg.pidFile).to.equal('/run/mdw.pid');
    expect(cfg.logDir).to.equal('/var/log/mdw');
    expect(cfg.statusMaxBlockAge).to.equal(60);
    expect(cfg.websocket).to.deep.equal({ host: '127.0.0.1', port: 4000 });
    expect(cfg.databaseSchema).to.equal('mdw_g2');
  });

  it('accepts a bare port and an IPv6 host for WEBSOCKET_ADDRESS', () => {
    expect(loadConfig({ WEBSOCKET_ADDRESS: '3021' }).websocket).to.deep.equal({ host: '0.0.0.0', port: 3021 });
    expect(loadConfig({ WEBSOCKET_ADDRESS: '[::1]:3021' }).websocket).to.deep.equal({ host: '::1', port: 3021 });
  });

  it('NODE_URLS adds failover nodes after NODE_URL, which is always first (prepended when missing, a repeat dropped)', () => {
    expect(
      loadConfig({ NODE_URL: 'http://a:3013', NODE_URLS: 'http://a:3013/, http://b:3013' }).nodeUrls,
    ).to.deep.equal(['http://a:3013', 'http://b:3013']);
    expect(loadConfig({ NODE_URL: 'http://a:3013', NODE_URLS: 'http://b:3013,http://c:3013' }).nodeUrls).to.deep.equal([
      'http://a:3013',
      'http://b:3013',
      'http://c:3013',
    ]);
    const onlyList = loadConfig({ NODE_URLS: 'http://b:3013,http://c:3013' });
    expect(onlyList.nodeUrl).to.equal('http://b:3013');
    expect(onlyList.nodeUrls).to.deep.equal(['http://b:3013', 'http://c:3013']);
  });

  it('reads the writer lease and the kubeconfig of a pod on Kubernetes, and none elsewhere', () => {
    const none = loadConfig({});
    expect(none.kube).to.deep.equal({
      kubeconfig: undefined,
      writerLeaseName: undefined,
      podNamespace: 'default',
      podName: undefined,
      requestTimeoutMs: 30_000,
    });
    expect(none.databaseUrlSet).to.equal(false);
    expect(loadConfig({ WRITER_LEASE_NAME: 'mdw-writer' }).kube).to.include({
      writerLeaseName: 'mdw-writer',
      podNamespace: 'default',
    });
    const pod = loadConfig({
      WRITER_LEASE_NAME: 'mdw-writer',
      POD_NAMESPACE: 'chain',
      POD_NAME: 'mdw-0',
      KUBECONFIG: '/etc/kube/config',
      DATABASE_URL: 'postgres://db/mdw',
    });
    expect(pod.kube).to.deep.equal({
      kubeconfig: '/etc/kube/config',
      writerLeaseName: 'mdw-writer',
      podNamespace: 'chain',
      podName: 'mdw-0',
      requestTimeoutMs: 30_000,
    });
    expect(pod.databaseUrlSet).to.equal(true);
  });

  it('REWARD_RULES names the reward rules (mainnet by default); GENESIS_ACCOUNTS_FILE is optional', () => {
    expect(loadConfig({}).rewardRules).to.equal('mainnet');
    expect(loadConfig({}).genesisAccountsFile).to.equal(undefined);
    expect(loadConfig({ REWARD_RULES: 'devnode', GENESIS_ACCOUNTS_FILE: '/g.json' })).to.deep.include({
      rewardRules: 'devnode',
      genesisAccountsFile: '/g.json',
    });
    expect(() => loadConfig({ REWARD_RULES: 'moon' })).to.throw(/REWARD_RULES/);
  });

  it('the hard-fork files are optional, each a .json file of the node', () => {
    expect(loadConfig({}).hardForkFiles).to.deep.equal({});
    expect(
      loadConfig({ MINERVA_ACCOUNTS_FILE: '/d/.minerva/accounts.json', LIMA_CONTRACTS_FILE: '/d/.lima/contracts.json' })
        .hardForkFiles,
    ).to.deep.equal({ minervaAccounts: '/d/.minerva/accounts.json', limaContracts: '/d/.lima/contracts.json' });
    expect(() => loadConfig({ LIMA_EXTRA_ACCOUNTS_FILE: '/d/.lima' })).to.throw(/LIMA_EXTRA_ACCOUNTS_FILE/);
  });

  it('DATABASE_READ_URLS lists the replicas a server reads (none by default), READ_REPLICA_MAX_LAG_SECONDS its bound', () => {
    expect(loadConfig({})).to.deep.include({ databaseReadUrls: [], readReplicaMaxLagSeconds: 30 });
    const cfg = loadConfig({
      DATABASE_READ_URLS: ' postgres://r1/mdw, postgresql://r2/mdw,postgres://r1/mdw ',
      READ_REPLICA_MAX_LAG_SECONDS: '5',
    });
    expect(cfg).to.deep.include({
      databaseReadUrls: ['postgres://r1/mdw', 'postgresql://r2/mdw'],
      readReplicaMaxLagSeconds: 5,
    });
  });

  it("bounds ae_mdw's sockets with ae_mdw's defaults, each limit its own variable", () => {
    expect(loadConfig({}).mdwWebsocket).to.deep.equal({
      maxConnections: 1000,
      maxConnectionsPerIp: 50,
      maxSubscriptions: 100_000,
      maxTotalSubscriptions: 2_000_000,
      pingLimit: 1000,
      maxReplayHeights: 10_000,
    });
    const set = loadConfig({
      WEBSOCKET_MDW_MAX_CONNECTIONS: '5',
      WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP: '4',
      WEBSOCKET_MDW_MAX_SUBSCRIPTIONS: '3',
      WEBSOCKET_MDW_MAX_TOTAL_SUBSCRIPTIONS: '2',
      WEBSOCKET_MDW_PING_LIMIT: '1',
      WEBSOCKET_MDW_MAX_REPLAY_HEIGHTS: '6',
    }).mdwWebsocket;
    expect(set).to.deep.equal({
      maxConnections: 5,
      maxConnectionsPerIp: 4,
      maxSubscriptions: 3,
      maxTotalSubscriptions: 2,
      pingLimit: 1,
      maxReplayHeights: 6,
    });
    expect(() => loadConfig({ WEBSOCKET_MDW_PING_LIMIT: '0' })).to.throw(ConfigError, /WEBSOCKET_MDW_PING_LIMIT/);
  });

  it('TRUSTED_PROXIES lists the proxies whose X-Forwarded-For is believed: none by default, IPv4 and IPv6', () => {
    expect(loadConfig({}).trustedProxies).to.deep.equal([]);
    const cfg = loadConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8, 192.168.1.7 ,fd00::/8,::1' });
    expect(cfg.trustedProxies).to.deep.equal(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1']);
  });

  it('API_CACHE_MAX_BYTES sets the response cache size; 0 turns it off', () => {
    expect(loadConfig({ API_CACHE_MAX_BYTES: '1048576' }).apiCacheMaxBytes).to.equal(1048576);
    expect(loadConfig({ API_CACHE_MAX_BYTES: '0' }).apiCacheMaxBytes).to.equal(0);
  });

  it('SHUTDOWN_DELAY_MS: a server stops at once by default, after the delay given in milliseconds', () => {
    expect(loadConfig({}).shutdownDelayMs).to.equal(0);
    expect(loadConfig({ SHUTDOWN_DELAY_MS: '5000' }).shutdownDelayMs).to.equal(5000);
  });

  const bad: Array<[string, string, RegExp]> = [
    ['SHUTDOWN_DELAY_MS', '5s', /SHUTDOWN_DELAY_MS: expected an integer/],
    ['SHUTDOWN_DELAY_MS', '-1', /SHUTDOWN_DELAY_MS: expected an integer/],
    ['API_CACHE_MAX_BYTES', '-1', /API_CACHE_MAX_BYTES: expected an integer/],
    ['API_CACHE_MAX_BYTES', '64MiB', /API_CACHE_MAX_BYTES: expected an integer/],
    ['NODE_URLS', 'http://a:3013,not a url', /NODE_URLS: not a URL: "not a url"/],
    ['NODE_URLS', 'http://a:3013,ftp://x', /NODE_URLS: expected an http\(s\) URL/],
    ['NODE_URL', 'not a url', /NODE_URL: not a URL/],
    ['NODE_URL', 'ftp://x', /NODE_URL: expected an http\(s\) URL/],
    // issue 27.6: the URL parser takes `host:` as the default port, a typo that would pass unseen
    ['NODE_URL', 'http://node:', /NODE_URL: empty port in "http:\/\/node:"/],
    ['NODE_URL', 'http://node:/v2', /NODE_URL: empty port/],
    ['NODE_URLS', 'http://a:3013,http://[::1]:', /NODE_URLS: empty port/],
    ['DATABASE_URL', 'mysql://x/y', /DATABASE_URL: expected a postgres/],
    ['DATABASE_READ_URLS', 'postgres://r1/mdw,http://r2', /DATABASE_READ_URLS: expected a postgres/],
    ['READ_REPLICA_MAX_LAG_SECONDS', '0', /READ_REPLICA_MAX_LAG_SECONDS: expected 1\.\./],
    [
      'TRUSTED_PROXIES',
      '10.0.0.0/8,ingress-nginx',
      /TRUSTED_PROXIES: expected an IP address or CIDR network .*"ingress-nginx"/,
    ],
    ['TRUSTED_PROXIES', '10.0.0.0/33', /TRUSTED_PROXIES: expected an IP address or CIDR network .*"10\.0\.0\.0\/33"/],
    ['TRUSTED_PROXIES', '10.0.0.0/8 fd00::/8', /TRUSTED_PROXIES: expected an IP address/],
    ['STATUS_MAX_BLOCK_AGE', 'ten', /STATUS_MAX_BLOCK_AGE: expected an integer/],
    ['STATUS_MAX_BLOCK_AGE', '0', /STATUS_MAX_BLOCK_AGE: expected 1\.\./],
    ['WEBSOCKET_ADDRESS', 'host:port', /WEBSOCKET_ADDRESS: expected host:port/],
    ['WEBSOCKET_ADDRESS', '0.0.0.0:70000', /WEBSOCKET_ADDRESS/],
    ['PORT', '-1', /PORT: expected an integer/],
    ['DATABASE_SCHEMA', 'Robert"; DROP', /DATABASE_SCHEMA: expected a lower-case SQL identifier/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL: expected one of/],
    ['DEX_FACTORY', 'ak_2mfj3FoZxnhkSw5RZMcP8BfPoB1QR4QiYGNCdkAvLZ1zfF6paW', /DEX_FACTORY: expected a contract id/],
    ['DEX_WRAPPED_AE', 'ct_x', /DEX_WRAPPED_AE: expected a contract id/],
  ];
  for (const [name, value, message] of bad) {
    it(`rejects ${name}=${JSON.stringify(value)} naming the variable`, () => {
      expect(() => loadConfig({ [name]: value })).to.throw(ConfigError, message);
    });
  }

  it('reports every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', FORK_WINDOW: 'y' });
      expect.fail('should throw');
    } catch (err) {
      expect((err as ConfigError).problems).to.have.length(2);
    }
  });

  it('redacts passwords of URLs for logs', () => {
    expect(redactUrl('postgres://u:secret@db/x')).to.equal('postgres://u:***@db/x');
  });
});

describe('loadConfig(env, defaults) for mdw dev', () => {
  it('listens on loopback by default, while a variable that is set still wins', () => {
    const dev = loadConfig({}, DEV_DEFAULTS);
    expect(dev.websocket).to.deep.equal({ host: '127.0.0.1', port: 3020 });
    expect(dev.httpHost).to.equal('127.0.0.1');
    const set = loadConfig({ WEBSOCKET_ADDRESS: '0.0.0.0:4000', HTTP_HOST: '::1', PORT: '0' }, DEV_DEFAULTS);
    expect(set.websocket).to.deep.equal({ host: '0.0.0.0', port: 4000 });
    expect(set.httpHost).to.equal('::1');
    expect(set.port).to.equal(0);
    expect(loadConfig({}).httpHost).to.equal(undefined);
  });

  // issue 44: `mdw dev` passed REWARD_RULES=devnode as a default, and loadConfig read it with the global one
  it('honours a role default for every variable exactly as the variable itself, and a set variable still wins', () => {
    const other: Record<keyof typeof DEFAULTS | 'HTTP_HOST', string> = {
      NODE_URL: 'http://node.example:3013',
      DATABASE_URL: 'postgres://u@db.example/x',
      DATABASE_SCHEMA: 'dev_x',
      DATABASE_POOL_SIZE: '3',
      READ_REPLICA_MAX_LAG_SECONDS: '5',
      LOG_LEVEL: 'debug',
      STATUS_MAX_BLOCK_AGE: '60',
      WEBSOCKET_ADDRESS: '127.0.0.1:4020',
      WEBSOCKET_MAX_CONNECTIONS: '7',
      WEBSOCKET_MAX_BUFFERED_BYTES: '2048',
      WEBSOCKET_MAX_TOTAL_BUFFERED_BYTES: '4096',
      WEBSOCKET_MDW_MAX_CONNECTIONS: '11',
      WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP: '12',
      WEBSOCKET_MDW_MAX_SUBSCRIPTIONS: '13',
      WEBSOCKET_MDW_MAX_TOTAL_SUBSCRIPTIONS: '14',
      WEBSOCKET_MDW_PING_LIMIT: '15',
      WEBSOCKET_MDW_MAX_REPLAY_HEIGHTS: '16',
      PORT: '9090',
      FORK_WINDOW: '9',
      BATCH_SIZE: '8',
      BATCH_TRANSACTIONS: '77',
      FETCH_CONCURRENCY: '2',
      NODE_MAX_READS: '40',
      NODE_MAX_DRY_RUNS: '20',
      POLL_INTERVAL_MS: '300',
      MEMPOOL_POLL_INTERVAL_MS: '200',
      PROGRESS_LOG_MS: '0',
      NODE_TIMEOUT_MS: '1500',
      KUBE_REQUEST_TIMEOUT_MS: '2500',
      CORS_ORIGINS: 'https://a.example',
      API_CACHE_MAX_BYTES: '0',
      SHUTDOWN_DELAY_MS: '2000',
      ROOT_V3: 'mdw',
      DEX_FACTORY: 'ct_NhbxN8wg8NLkGuzwRNDQhMDKSKBwDAQgxQawK7tkigi2aC7i9',
      DEX_WRAPPED_AE: 'ct_JDp175ruWd7mQggeHewSLS1PFXt9AzThCDaFedxon8mF8xTRF',
      REWARD_RULES: 'devnode',
      MAX_FORK_DEPTH: '50',
      EXPORT_MAX_ROWS: '1000',
      EXPORT_MAX_RUNNING: '3',
      EXPORT_MAX_SECONDS: '30',
      EXPORT_PAGE_ROWS: '50',
      API_KEYS: 'on',
      API_QUOTA_FLUSH_MS: '20',
      API_KEYS_REFRESH_MS: '500',
      WEBHOOK_TIMEOUT_MS: '1500',
      WEBHOOK_MAX_RESPONSE_BYTES: '100',
      WEBHOOK_CONCURRENCY: '3',
      WEBHOOK_LEASE_MS: '5000',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_RETRY_INITIAL_MS: '100',
      WEBHOOK_MAX_REPLAY_HEIGHTS: '20',
      WEBHOOK_RETENTION_MS: '3600000',
      HTTP_HOST: '127.0.0.2',
    };
    // a variable added to DEFAULTS must join this table
    expect(Object.keys(other).sort()).to.deep.equal([...Object.keys(DEFAULTS), 'HTTP_HOST'].sort());
    // databaseUrlSet and rewardRulesSet say whether the user chose the variable, which a role's default is not (below)
    const load = (env: Record<string, string>, defaults = {}) => ({
      ...loadConfig(env, defaults),
      databaseUrlSet: 0,
      rewardRulesSet: 0,
    });
    const plain = load({});
    for (const [name, value] of Object.entries(other)) {
      const byDefault = load({}, { [name]: value });
      expect(byDefault, name).to.deep.equal(load({ [name]: value }));
      expect(byDefault, name).not.to.deep.equal(plain);
      expect(load({ [name]: value }, { [name]: 'not valid' }), name).to.deep.equal(byDefault);
    }
    // a role's default is not the user's choice: mdw dev still starts its own PostgreSQL
    expect(loadConfig({}, { DATABASE_URL: other.DATABASE_URL }).databaseUrlSet).to.equal(false);
    expect(() => loadConfig({}, { REWARD_RULES: 'moon' })).to.throw(/REWARD_RULES: expected one of/);
  });
});

describe('MEMPOOL_POLL_INTERVAL_MS', () => {
  it('polls the mempool more often than a second by default, apart from POLL_INTERVAL_MS', () => {
    expect(loadConfig({}).mempoolPollIntervalMs).to.be.below(1000);
    const cfg = loadConfig({ MEMPOOL_POLL_INTERVAL_MS: '250', POLL_INTERVAL_MS: '5000' });
    expect([cfg.mempoolPollIntervalMs, cfg.pollIntervalMs]).to.deep.equal([250, 5000]);
  });
});

describe('loadOperatorConfig(env)', () => {
  it('reads the environment the chart and mdw manifests set', () => {
    const cfg = loadOperatorConfig({
      MIDDLEWARE_IMAGE: 'mdw:1',
      POD_NAME: 'op-1',
      POD_NAMESPACE: 'mdw-system',
      WATCH_NAMESPACE: 'chains',
      PORT: '9090',
    });
    expect(cfg).to.include({
      image: 'mdw:1',
      identity: 'op-1',
      leaseNamespace: 'mdw-system',
      watchNamespace: 'chains',
      port: 9090,
      kubeconfig: undefined,
    });
    expect(Object.isFrozen(cfg)).to.equal(true);
  });

  it('watches every namespace when WATCH_NAMESPACE is empty, leases in default without POD_NAMESPACE', () => {
    const cfg = loadOperatorConfig({ MIDDLEWARE_IMAGE: 'mdw:1', WATCH_NAMESPACE: '' });
    expect(cfg.watchNamespace).to.equal(undefined);
    expect(cfg.leaseNamespace).to.equal('default');
    expect(cfg.identity).to.equal(undefined);
  });

  it('names every problem at once: the missing image, a bad port, bad names', () => {
    expect(() =>
      loadOperatorConfig({ PORT: 'x', POD_NAMESPACE: 'Bad_NS', LEADER_LEASE_NAME: 'no spaces', LOG_LEVEL: 'loud' }),
    )
      .to.throw(ConfigError)
      .with.property('problems')
      .that.has.length(5);
  });
});

describe('kube settings (the populator writer Lease and the admin commands)', () => {
  it('are part of the Config, read from WRITER_LEASE_NAME, POD_NAMESPACE, POD_NAME, KUBECONFIG and KUBE_REQUEST_TIMEOUT_MS', () => {
    const env = {
      WRITER_LEASE_NAME: 'mainnet-writer-g2',
      POD_NAMESPACE: 'chain',
      POD_NAME: 'mainnet-populator-g2-abc',
      KUBECONFIG: '/home/me/.kube/config',
      KUBE_REQUEST_TIMEOUT_MS: '5000',
    };
    const want = {
      writerLeaseName: 'mainnet-writer-g2',
      podNamespace: 'chain',
      podName: 'mainnet-populator-g2-abc',
      kubeconfig: '/home/me/.kube/config',
      requestTimeoutMs: 5000,
    };
    expect(loadConfig(env).kube).to.deep.equal(want);
    expect(loadKubeSettings(env)).to.deep.equal(want);
  });

  it('default to no Lease in namespace default, and a 30 s request timeout', () =>
    expect(loadConfig({}).kube).to.deep.equal({
      writerLeaseName: undefined,
      podNamespace: 'default',
      podName: undefined,
      kubeconfig: undefined,
      requestTimeoutMs: 30_000,
    }));

  it('refuse a request timeout that is not a number of milliseconds from 100 to 10 minutes', () =>
    expect(() => loadKubeSettings({ KUBE_REQUEST_TIMEOUT_MS: '0' })).to.throw(/KUBE_REQUEST_TIMEOUT_MS/));

  it('refuse a Lease name that is not a Kubernetes name', () =>
    expect(() => loadKubeSettings({ WRITER_LEASE_NAME: 'Writer Lease' })).to.throw(
      /WRITER_LEASE_NAME: expected a DNS name/,
    ));
});
