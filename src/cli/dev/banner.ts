/** @module What `mdw dev` prints once everything is up: the URLs an aepp needs, the developer's keys, the way out. Pure. */
import { redactUrl } from '../../config/middleware.ts';

/** BannerFacts are the running environment's addresses and choices. */
export interface BannerFacts {
  /** the server's HTTP base URL (the gateway) */
  readonly http: string;
  /** the seed's websocket base URL */
  readonly websocket: string;
  /** the devnode's URLs, or the node's URL given with --node-url */
  readonly node: { readonly external: string; readonly internal?: string; readonly devnode: boolean };
  readonly databaseUrl: string;
  /** the embedded PostgreSQL: its fixed local password is printed, a database of the user's own is not */
  readonly embeddedDatabase: boolean;
  readonly schema: string;
  /** the settings that make `mdw -v` and `mdw db usage` read this database as the middleware does */
  readonly settings: Readonly<Record<string, string>>;
  /** API_KEYS is on: requests are counted against their key's tier, and webhooks are created with a key */
  readonly apiKeys: boolean;
  /** the webhook sender delivers to receivers on loopback and private addresses (WEBHOOKS_ALLOW_PRIVATE) */
  readonly webhooksAllowPrivate: boolean;
  /** the developer's funded accounts, which mdw dev's own traffic never uses */
  readonly accounts: readonly { readonly publicKey: string; readonly secretKey: string; readonly balance: bigint }[];
  /** the devnode's own DEX, which the middleware's DEX_FACTORY and DEX_WRAPPED_AE name */
  readonly dex?: { readonly factory: string; readonly router: string; readonly wrappedAe: string };
  /** defaults that were taken by another process, and the port chosen instead */
  readonly movedPorts: readonly { readonly setting: string; readonly from: number; readonly to: number }[];
}

const AETTOS_PER_AE = 10n ** 18n;

/** bannerLines lays the environment out as an æternity gateway: the URLs an aepp gives the SDK's clients first. */
export function bannerLines(f: BannerFacts): string[] {
  const { http } = f;
  const nodeLine = f.node.devnode
    ? `  devnode               ${f.node.external} (internal ${f.node.internal ?? '-'})`
    : `  node                  ${f.node.external}   (given with --node-url)`;
  const shownDb = f.embeddedDatabase ? f.databaseUrl : redactUrl(f.databaseUrl);
  const settings = Object.entries({ ...f.settings, DATABASE_URL: shownDb })
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  return [
    '',
    'æternity middleware dev environment is up:',
    `  new Node(url)         ${http}   (the node's API, /v2 and /v3: cached queries from PostgreSQL, the rest forwarded to the ${f.node.devnode ? 'devnode' : 'node'})`,
    `  new Middleware(url)   ${http}/mdw   (ae_mdw's API at /mdw/v3; OpenAPI: ${http}/mdw/v3/api, Swagger UI: ${http}/mdw/swagger)`,
    `  MiddlewareSubscriber  ${http.replace(/^http/, 'ws')}/mdw/v3/websocket`,
    `  GraphQL               ${http}/mdw/graphql   (GraphiQL: ${http}/mdw/graphiql)`,
    `  API                   ${http}/middleware/status   (the original middleware API; OpenAPI: ${http}/middleware/api, Swagger UI: ${http}/middleware/swagger)`,
    `  websocket             ${f.websocket}   (the seed's chain events; ae_mdw's at ${f.websocket}/v3/websocket too)`,
    `  metrics               ${http}/metrics`,
    nodeLine,
    ...(f.dex
      ? [`  DEX                   factory ${f.dex.factory}  router ${f.dex.router}  wrapped AE ${f.dex.wrappedAe}`]
      : []),
    `  PostgreSQL            ${shownDb}   (schema ${f.schema})`,
    ...f.movedPorts.map((m) => `  port ${m.from} (${m.setting}) was taken by another process: using ${m.to}`),
    ...(f.accounts.length > 0
      ? [
          "Funded accounts for you (mdw dev's own traffic never uses them; address, secret key, balance):",
          ...f.accounts.map((a) => `  ${a.publicKey}  ${a.secretKey}  ${formatAe(a.balance)} AE`),
        ]
      : []),
    'mdw -v and mdw db usage on this database (the environment the middleware runs with):',
    `  ${settings} node bin/mdw.js -v`,
    `Webhooks (docs/webhooks.md#trying-them-with-make-dev) are sent${f.webhooksAllowPrivate ? ', to receivers on localhost too (WEBHOOKS_ALLOW_PRIVATE=true)' : ''}; each belongs to an API key:`,
    ...(f.apiKeys
      ? [`  ${settings} node bin/mdw.js keys create --name me   (its key goes in X-API-Key)`]
      : ['  API keys are off: start with API_KEYS=on (API_KEYS=on make dev), then create one with `mdw keys create`']),
    ...(f.node.devnode
      ? [
          'The devnode runs no FATE code: deploying works, calling your own contract does not. For that, run a real',
          'æternity node (and a compiler) and `make dev NODE_URL=http://localhost:3013` (docs/devnode.md#a-real-node-instead-of-the-devnode).',
        ]
      : []),
    'Ctrl-C stops everything.',
    '',
  ];
}

/** formatAe writes aettos as AE, exactly (no rounding: balances exceed 2^53 aettos). */
function formatAe(aettos: bigint): string {
  const whole = aettos / AETTOS_PER_AE;
  const fraction = (aettos % AETTOS_PER_AE).toString().padStart(18, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
