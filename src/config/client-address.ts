/**
 * @module The address of the client behind a request: its TCP peer, or, when that peer is a proxy TRUSTED_PROXIES
 * names, the address the proxies forwarded in X-Forwarded-For. Pure.
 */
import { BlockList, SocketAddress, isIPv4, isIPv6 } from 'node:net';

/** ProxyEntry is one entry of TRUSTED_PROXIES: an address, or a network in CIDR notation. */
export interface ProxyEntry {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/**
 * parseProxyEntry reads `10.0.0.7`, `10.0.0.0/8`, `fd00::/8` or `::1` (an IPv4 address mapped into IPv6 is read as
 * the IPv4 one, as clients are); undefined when it is none of these.
 */
export function parseProxyEntry(text: string): ProxyEntry | undefined {
  const match = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(text.trim());
  if (!match) return undefined;
  const given = match[1]!;
  const bits = match[2] === undefined ? undefined : Number(match[2]);
  const mapped = ipv4Mapped(given);
  // a mapped network `::ffff:10.0.0.0/104` is the IPv4 network 10.0.0.0/8
  if (mapped !== undefined) return entry(mapped, 'ipv4', bits === undefined ? 32 : bits - 96);
  if (isIPv4(given)) return entry(given, 'ipv4', bits ?? 32);
  if (isIPv6(given) && !given.includes('%')) return entry(given, 'ipv6', bits ?? 128);
  return undefined;
}

function entry(address: string, family: ProxyEntry['family'], prefix: number): ProxyEntry | undefined {
  const width = family === 'ipv4' ? 32 : 128;
  return prefix >= 0 && prefix <= width ? { address, prefix, family } : undefined;
}

/** TrustedProxies matches addresses against the entries of TRUSTED_PROXIES; none: no address is a trusted proxy. */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly #empty: boolean;

  /** entries must each be accepted by parseProxyEntry (src/config/ validates them). */
  constructor(entries: readonly string[]) {
    for (const text of entries) {
      const parsed = parseProxyEntry(text);
      if (parsed === undefined) throw new TypeError(`not an address or CIDR network: ${JSON.stringify(text)}`);
      this.#list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
    this.#empty = entries.length === 0;
  }

  /** includes is true for an address (normalised by normaliseAddress) inside one of the entries. */
  includes(address: string): boolean {
    if (this.#empty) return false;
    return this.#list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
  }

  /**
   * clientAddress is the address a request came from. The TCP peer, unless it is a trusted proxy: then the entries
   * of X-Forwarded-For are read from the right (each proxy appends the address it was reached from), and the first
   * that is not a trusted proxy is the client. An entry that is no address ends the walk, and so does the list's
   * start: the answer is then the last trusted proxy, since nothing before it can be believed.
   */
  clientAddress(peer: string | undefined, forwardedFor: string | readonly string[] | undefined): string {
    let hop = normaliseAddress(peer ?? '');
    // a socket already closed has no peer address: all such sockets share one count
    if (hop === undefined) return 'unknown';
    if (!this.includes(hop) || forwardedFor === undefined) return hop;
    const entries = (typeof forwardedFor === 'string' ? [forwardedFor] : forwardedFor).join(',').split(',');
    for (let i = entries.length - 1; i >= 0; i--) {
      const forwarded = forwardedAddress(entries[i]!);
      if (forwarded === undefined) return hop;
      hop = forwarded;
      if (!this.includes(hop)) return hop;
    }
    return hop;
  }
}

/**
 * normaliseAddress writes an address as clients are counted: an IPv4 address mapped into IPv6 (`::ffff:10.0.0.1`, as
 * a dual-stack socket reports IPv4 peers) as the IPv4 one, an IPv6 address in its shortest form (RFC 5952, as a
 * proxy may not write it); undefined when it is no address.
 */
export function normaliseAddress(text: string): string | undefined {
  const mapped = ipv4Mapped(text);
  if (mapped !== undefined) return mapped;
  if (isIPv4(text)) return text;
  return isIPv6(text) && !text.includes('%') ? new SocketAddress({ address: text, family: 'ipv6' }).address : undefined;
}

/** forwardedAddress reads one X-Forwarded-For entry: an address, `[v6]`, or with a port (`1.2.3.4:5`, `[v6]:5`). */
function forwardedAddress(entry: string): string | undefined {
  const text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return isIPv6(bracketed[1]!) ? normaliseAddress(bracketed[1]!) : undefined;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
  return normaliseAddress(withPort ? withPort[1]! : text);
}

/** ipv4Mapped is the IPv4 address of `::ffff:a.b.c.d`, or undefined. */
function ipv4Mapped(text: string): string | undefined {
  const match = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  return match && isIPv4(match[1]!) ? match[1] : undefined;
}
