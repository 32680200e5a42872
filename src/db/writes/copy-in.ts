/**
 * @module The populator's COPY … FROM STDIN payloads: COPY's text format of a value, and the lines written straight
 * into CopyData payloads (their COPY: bulk-load.ts copyMany).
 */

/** A CopyData payload's size before the next starts (the last may be smaller, one long line larger). */
const PAYLOAD_BYTES = 64 * 1024;

/**
 * CopyPayloads writes COPY text lines straight into the CopyData payloads: one write of each line into a buffer, with
 * no array of lines, no joined text and no second encoding in between (the populator writes every row this way).
 */
export class CopyPayloads {
  readonly #payloads: Buffer[] = [];
  #buffer = Buffer.allocUnsafe(PAYLOAD_BYTES);
  #at = 0;

  /** line adds one row (its values in copyText's format, joined by tabs) and its line break. */
  line(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    const most = 3 * text.length + 1;
    if (this.#at + most > this.#buffer.length) {
      this.#cut();
      if (most > this.#buffer.length) this.#buffer = Buffer.allocUnsafe(most);
    }
    this.#at += this.#buffer.write(text, this.#at);
    this.#buffer[this.#at++] = 0x0a;
  }

  /** payloads are the lines written so far (they may be kept a while: a short one is copied out at its length). */
  payloads(): Buffer[] {
    this.#cut();
    return this.#payloads;
  }

  #cut(): void {
    if (this.#at === 0) return;
    // a full buffer is handed over as it is, and a new one taken; a short rest (a table's last lines) is copied out
    if (2 * this.#at >= this.#buffer.length) {
      this.#payloads.push(this.#buffer.subarray(0, this.#at));
      this.#buffer = Buffer.allocUnsafe(PAYLOAD_BYTES);
    } else this.#payloads.push(Buffer.copyBytesFrom(this.#buffer, 0, this.#at));
    this.#at = 0;
  }
}

/** Characters COPY's text format escapes. */
const COPY_ESCAPED = /[\\\t\n\r]/;

/**
 * copyText is a value in COPY's text format: \N for NULL, backslash, tab and line breaks escaped.
 * text[] values arrive as space-joined words (signatures, field names: no commas, quotes or braces), bytea
 * values as hex (`\x…`).
 * Numbers and booleans need no escaping check (this runs for every value the populator writes).
 */
export function copyText(pgType: string, value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  // bytea values arrive in hex (`\x…`): the leading backslash is their only character to escape
  if (pgType === 'bytea') return `\\${value}`;
  const text = pgType === 'text[]' ? arrayLiteral(value) : value;
  return COPY_ESCAPED.test(text)
    ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : text;
}

/** arrayLiteral is `{a,b}` of space-joined words, empty words left out. */
function arrayLiteral(words: string): string {
  if (!words.includes('  ') && !words.startsWith(' ') && !words.endsWith(' ')) return `{${words.replaceAll(' ', ',')}}`;
  return `{${words.split(' ').filter(Boolean).join(',')}}`;
}
