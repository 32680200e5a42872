/**
 * @module The populator's COPY … FROM STDIN payloads: COPY's text format of a value, and the lines written straight
 * into CopyData payloads (their COPY: bulk-load.ts copyMany).
 */

/** A CopyData payload's size before the next starts (the last may be smaller, one long line larger). */
const PAYLOAD_BYTES = 64 * 1024;

/**
 * Texts up to this length (ids and hashes are about 53) are copied character by character; a longer one (JSON) is
 * checked by copyText's pattern and written by Buffer's native write. The encoding stage of bench/populator-stages.ts
 * counted 32.5k instructions a transaction with 16, 28.1k and 21.5k with 96 (valgrind, Node 24).
 */
const SHORT_TEXT = 96;

const TAB = 0x09;
const BACKSLASH = 0x5c;

/**
 * CopyPayloads writes COPY text lines straight into the CopyData payloads, value by value: no line or value text in
 * between where a value needs no escaping (numbers, ids, hashes, most texts), no joined text and no second encoding.
 * Each payload ends at a line. One serves several tables in turn (`payloads` hands over a table's and starts anew).
 */
export class CopyPayloads {
  #payloads: Buffer[] = [];
  #buffer = Buffer.allocUnsafe(PAYLOAD_BYTES);
  #at = 0;
  /** where the line being written starts, and how many of its values are written */
  #lineStart = 0;
  #values = 0;

  /**
   * line adds one row already in COPY's text format (its values in copyText's format, joined by tabs): the COPY text
   * bench/indexer.lib.copy-send.ts sends again.
   */
  line(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.#room(3 * text.length + 1);
    this.#at += this.#buffer.write(text, this.#at);
    this.end();
  }

  /** value adds one value of the line being written, in copyText's format (the tab before it where one is due). */
  value(pgType: string, value: string | number | boolean | null): void {
    // the longest of a tab and a number's, a boolean's or NULL's text
    this.#room(32);
    const b = this.#buffer;
    if (this.#values++ > 0) b[this.#at++] = TAB;
    if (value === null) {
      b[this.#at++] = BACKSLASH;
      b[this.#at++] = 0x4e; // N
    } else if (typeof value === 'number') this.#number(value);
    else if (typeof value === 'boolean')
      b[this.#at++] = value ? 0x74 : 0x66; // t, f
    else if (pgType === 'bytea') {
      // in hex (`\x…`): the leading backslash is its only character to escape, as in copyText
      b[this.#at++] = BACKSLASH;
      this.#escaped(value);
    } else if (pgType === 'text[]') this.#escaped(copyText(pgType, value));
    else this.#text(value);
  }

  /** end ends the line being written. */
  end(): void {
    this.#room(1);
    this.#buffer[this.#at++] = 0x0a;
    this.#lineStart = this.#at;
    this.#values = 0;
  }

  /** payloads are the lines written since the last call (they may be kept a while: a short one is copied out). */
  payloads(): Buffer[] {
    this.#cut();
    const payloads = this.#payloads;
    this.#payloads = [];
    return payloads;
  }

  /** discard forgets what was written since the last `payloads` (a table whose values could not all be made). */
  discard(): void {
    this.#payloads = [];
    this.#at = this.#lineStart = this.#values = 0;
  }

  /** #number writes an integer's digits (the columns' numbers are integers; anything else as JavaScript writes it). */
  #number(n: number): void {
    if (!Number.isSafeInteger(n)) {
      this.#at += this.#buffer.write(String(n), this.#at);
      return;
    }
    const b = this.#buffer;
    if (n < 0) {
      b[this.#at++] = 0x2d; // -
      n = -n;
    }
    let digits = 1;
    for (let m = n; m >= 10; m = Math.floor(m / 10)) digits++;
    const end = (this.#at += digits);
    for (let i = end - 1; i >= end - digits; i--) {
      b[i] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
  }

  /**
   * #text writes a text, escaped as copyText does: a short one character by character in one pass, which gives way
   * to copyText where a character needs escaping or is not ASCII; a longer one checked by copyText's pattern at once.
   */
  #text(text: string): void {
    const length = text.length;
    if (length > SHORT_TEXT) {
      if (COPY_ESCAPED.test(text)) this.#escaped(copyText('text', text));
      else this.#escaped(text);
      return;
    }
    this.#room(length);
    const b = this.#buffer;
    const at = this.#at;
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c === BACKSLASH || c > 0x7e) {
        this.#escaped(copyText('text', text));
        return;
      }
      b[at + i] = c;
    }
    this.#at = at + length;
  }

  /** #escaped writes a text that needs no more escaping, in UTF-8. */
  #escaped(text: string): void {
    this.#room(3 * text.length);
    this.#at += this.#buffer.write(text, this.#at);
  }

  /**
   * #room makes room for `bytes` more bytes of the line being written: where the buffer has not, the lines before it
   * become a payload and the line moves to the start of a buffer (a new, larger one where the line would not fit).
   */
  #room(bytes: number): void {
    if (this.#at + bytes <= this.#buffer.length) return;
    const old = this.#buffer;
    const start = this.#lineStart;
    const written = this.#at - start;
    this.#cut();
    if (written + bytes > this.#buffer.length)
      this.#buffer = Buffer.allocUnsafe(Math.max(PAYLOAD_BYTES, 2 * (written + bytes)));
    old.copy(this.#buffer, 0, start, start + written);
    this.#at = written;
  }

  /** #cut makes the whole lines written a payload; the buffer is then empty. */
  #cut(): void {
    const end = this.#lineStart;
    this.#at = this.#lineStart = 0;
    if (end === 0) return;
    // a full buffer is handed over as it is, and a new one taken; a short rest (a table's last lines) is copied out
    if (2 * end >= this.#buffer.length) {
      this.#payloads.push(this.#buffer.subarray(0, end));
      this.#buffer = Buffer.allocUnsafe(PAYLOAD_BYTES);
    } else this.#payloads.push(Buffer.copyBytesFrom(this.#buffer, 0, end));
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
