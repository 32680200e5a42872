/** @module The environment reader: each variable read, checked and its problem noted, all problems thrown at once. Pure. */
import { isEncoded } from '../chain/encoding.ts';
import { AppError, ErrorCode } from '../base/errors.ts';
import { parseProxyEntry } from './client-address.ts';

/** ConfigError lists every bad variable at once, each line naming the variable. */
export class ConfigError extends AppError {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(ErrorCode.CONFIG_INVALID, 500, `invalid configuration:\n  ${problems.join('\n  ')}`);
    this.problems = problems;
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

export class Reader {
  readonly #env: Env;
  readonly #problems: string[];
  readonly #defaults: Env;

  constructor(env: Env, problems: string[], defaults: Env = {}) {
    this.#env = env;
    this.#problems = problems;
    this.#defaults = defaults;
  }

  /** optional is every read's source: the variable when set (not blank), else the role's default, else undefined. */
  optional(name: string): string | undefined {
    return nonBlank(this.#env[name]) ?? nonBlank(this.#defaults[name]);
  }

  /** isSet tells whether the environment itself sets the variable (a role's default does not count). */
  isSet(name: string): boolean {
    return nonBlank(this.#env[name]) !== undefined;
  }

  /** problem records a variable that is set but wrong. */
  problem(name: string, message: string): void {
    this.#problems.push(`${name}: ${message}`);
  }

  #fail<T>(name: string, message: string, fallback: T): T {
    this.#problems.push(`${name}: ${message}`);
    return fallback;
  }

  url(name: string, fallback: string): string {
    return this.optionalUrl(name) ?? fallback;
  }

  optionalUrl(name: string): string | undefined {
    const value = this.optional(name);
    return value === undefined ? undefined : this.#parseUrl(name, value);
  }

  #parseUrl(name: string, value: string): string | undefined {
    try {
      const parsed = new URL(value);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        return this.#fail(name, `expected an http(s) URL, got ${JSON.stringify(value)}`, undefined);
      }
      // the URL parser reads `host:` as the default port: a port left out by mistake would pass unseen
      if (/^[a-z]+:\/\/[^/?#]*:(?:[/?#]|$)/i.test(value)) {
        return this.#fail(name, `empty port in ${JSON.stringify(value)}`, undefined);
      }
      return value.replace(/\/+$/, '');
    } catch {
      return this.#fail(name, `not a URL: ${JSON.stringify(value)}`, undefined);
    }
  }

  /** urlList reads comma-separated http(s) URLs, each validated like a single one. */
  urlList(name: string): string[] {
    return (this.optional(name) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .flatMap((value) => {
        const url = this.#parseUrl(name, value);
        return url === undefined ? [] : [url];
      });
  }

  databaseUrl(name: string, fallback: string): string {
    return this.#parseDatabaseUrl(name, this.optional(name) ?? fallback) ?? fallback;
  }

  /** databaseUrlList reads comma-separated PostgreSQL URLs, each validated like DATABASE_URL, repeats dropped. */
  databaseUrlList(name: string): string[] {
    const urls = (this.optional(name) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .flatMap((value) => this.#parseDatabaseUrl(name, value) ?? []);
    return [...new Set(urls)];
  }

  #parseDatabaseUrl(name: string, value: string): string | undefined {
    try {
      const parsed = new URL(value);
      if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
        return this.#fail(name, 'expected a postgres:// or postgresql:// URL', undefined);
      }
      return value;
    } catch {
      return this.#fail(name, 'not a PostgreSQL connection URL', undefined);
    }
  }

  identifier(name: string, fallback: string): string {
    const value = this.optional(name) ?? fallback;
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(value)) {
      return this.#fail(
        name,
        `expected a lower-case SQL identifier (a-z, 0-9, _), got ${JSON.stringify(value)}`,
        fallback,
      );
    }
    return value;
  }

  contractId(name: string, fallback: string): string {
    const value = this.optional(name) ?? fallback;
    if (!isEncoded(value, ['ct']))
      return this.#fail(name, `expected a contract id (ct_…), got ${JSON.stringify(value)}`, fallback);
    return value;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.optional(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) return this.#fail(name, `expected an integer, got ${JSON.stringify(value)}`, fallback);
    const n = Number(value);
    if (n < min || n > max) return this.#fail(name, `expected ${min}..${max}, got ${n}`, fallback);
    return n;
  }

  /** optionalDnsLabel reads a namespace-like name (RFC 1123 label: a-z, 0-9, -, at most 63). */
  optionalDnsLabel(name: string): string | undefined {
    const value = this.optional(name);
    if (value === undefined || /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(value)) return value;
    return this.#fail(name, `expected a DNS label (a-z, 0-9, -), got ${JSON.stringify(value)}`, undefined);
  }

  /** optionalDnsName reads an object name (RFC 1123 subdomain: labels joined by dots, at most 253). */
  optionalDnsName(name: string): string | undefined {
    const value = this.optional(name);
    if (value === undefined) return undefined;
    if (value.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(value))
      return value;
    return this.#fail(name, `expected a DNS name (a-z, 0-9, -, .), got ${JSON.stringify(value)}`, undefined);
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.optional(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(value)) return true;
    if (['0', 'false', 'no'].includes(value)) return false;
    return this.#fail(name, `expected true or false, got ${JSON.stringify(value)}`, fallback);
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const value = this.optional(name) ?? fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      return this.#fail(name, `expected one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, fallback);
    }
    return value as T;
  }

  list(name: string, fallback: string): string[] {
    return (this.optional(name) ?? fallback)
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }

  /** proxyList reads comma-separated addresses and CIDR networks, IPv4 or IPv6 (src/config/client-address.ts). */
  proxyList(name: string): string[] {
    return this.list(name, '').filter((entry) => {
      if (parseProxyEntry(entry) !== undefined) return true;
      this.problem(name, `expected an IP address or CIDR network (10.0.0.0/8, fd00::/8), got ${JSON.stringify(entry)}`);
      return false;
    });
  }

  address(name: string, fallback: string): { host: string; port: number } {
    const value = this.optional(name) ?? fallback;
    const match = /^(?:(\[[0-9a-fA-F:]+\]|[^:[\]]+):)?(\d+)$/.exec(value);
    const port = match ? Number(match[2]) : NaN;
    if (!match || port > 65535) {
      const [host, p] = fallback.split(':');
      return this.#fail(name, `expected host:port, got ${JSON.stringify(value)}`, { host: host!, port: Number(p) });
    }
    return { host: (match[1] ?? '0.0.0.0').replace(/^\[|\]$/g, ''), port };
  }
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}
