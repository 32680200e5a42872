/**
 * @module One delivery's POST to a receiver, guarded against server-side request forgery (docs/webhooks.md,
 * "Outbound"): the URL's host is resolved first and every address it has is checked, so a name that points at a
 * private, loopback or link-local address is refused before any connection unless the setting allows it; the
 * connection goes to a checked address; a redirect is never followed; the whole exchange has a deadline and the
 * answer a size cap. Connections are kept open between deliveries (Receivers), pooled by the checked address they
 * went to, so a receiver's connection and TLS handshake are paid once, not per delivery.
 */
import { lookup } from 'node:dns/promises';
import type { Agent as HttpAgent } from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { http } from '../base/node-http.ts';

/** OutboundLimits bound one POST. */
export interface OutboundLimits {
  /** the whole exchange: resolve, connect, send, read the answer */
  readonly timeoutMs: number;
  /** bytes of the answer read at most (the rest is dropped and the connection closed) */
  readonly maxResponseBytes: number;
  /** private, loopback and link-local addresses allowed (WEBHOOKS_ALLOW_PRIVATE) */
  readonly allowPrivate: boolean;
}

/** PostResult is what came of a POST: a status, or why there was none. */
export type PostResult = { readonly ok: boolean; readonly status?: number; readonly error?: string };

/** The ranges a public receiver never has: private, loopback, link-local, shared, multicast and reserved ones. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** isPrivateAddress tells an address no public receiver has (an IPv4-mapped IPv6 address is judged as IPv4). Pure. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** checkedUrl reads a hook's URL: http or https, a host, no credentials; the error says why not. Pure. */
export function checkedUrl(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs are delivered to';
  if (url.username || url.password) return 'a URL with credentials is refused';
  if (url.hash) return 'a URL with a fragment is refused';
  if (text.length > 2000) return 'a URL longer than 2000 characters is refused';
  return url;
}

/**
 * IDLE_MS: how long a connection to a receiver stays open unused, under the 5 s a Node.js server keeps an idle one
 * (keepAliveTimeout) and most proxies' longer ones, so it is closed here before a receiver closes it under a request.
 */
const IDLE_MS = 4000;

/**
 * Receivers are the connections kept open to receivers, at most `perAddress` to each (Node's agents pool a socket by
 * the address it connected to: the checked one, resolved again for every delivery); `close` ends them.
 */
export class Receivers {
  readonly #agents: { readonly 'http:': HttpAgent; readonly 'https:': https.Agent };

  constructor(perAddress: number) {
    const options = { keepAlive: true, maxSockets: perAddress, maxFreeSockets: perAddress, timeout: IDLE_MS };
    this.#agents = { 'http:': new http.Agent(options), 'https:': new https.Agent(options) };
  }

  agentOf(url: URL): HttpAgent {
    return url.protocol === 'https:' ? this.#agents['https:'] : this.#agents['http:'];
  }

  close(): void {
    this.#agents['http:'].destroy();
    this.#agents['https:'].destroy();
  }
}

/** postDelivery sends `body` with `headers` to `url` within the limits over `receivers`' connections; it never throws. */
export async function postDelivery(
  url: URL,
  body: string,
  headers: Readonly<Record<string, string>>,
  limits: OutboundLimits,
  receivers: Receivers,
): Promise<PostResult> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  try {
    const address = await resolveChecked(url.hostname, limits.allowPrivate);
    const send = () => post(url, address, body, headers, { limits, agent: receivers.agentOf(url), signal: deadline });
    // a kept connection the receiver closed as it was taken fails before any answer: sent again on a new one
    return await send().catch((err: unknown) => {
      if (err instanceof StaleConnection && !deadline.aborted) return send();
      throw err;
    });
  } catch (err) {
    if (deadline.aborted) return { ok: false, error: `no answer within ${limits.timeoutMs} ms` };
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

async function resolveChecked(hostname: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  const refused = addresses.find((a) => isPrivateAddress(a.address));
  if (refused && !allowPrivate)
    throw new Error(`refused: ${host} resolves to ${refused.address}, a private or loopback address`);
  return addresses[0]!;
}

/** StaleConnection: a kept connection was closed by its receiver before it answered (its request may be sent again). */
class StaleConnection extends Error {}

function post(
  url: URL,
  to: { address: string; family: number },
  body: string,
  headers: Readonly<Record<string, string>>,
  { limits, agent, signal }: { limits: OutboundLimits; agent: HttpAgent; signal: AbortSignal },
): Promise<PostResult> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        method: 'POST',
        host: to.address,
        family: to.family,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        servername: isIP(url.hostname) ? undefined : url.hostname,
        headers: {
          ...headers,
          host: url.host,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'mdw-webhooks',
        },
        signal,
        agent,
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > limits.maxResponseBytes) res.destroy();
        });
        res.on('close', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve({ ok: true, status });
          else if (status >= 300 && status < 400)
            resolve({ ok: false, status, error: `redirect (${status}) not followed` });
          else resolve({ ok: false, status, error: `answered ${status}` });
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      reject(req.reusedSocket && err.code === 'ECONNRESET' ? new StaleConnection(err.message) : err),
    );
    req.end(body);
  });
}
