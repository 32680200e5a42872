/**
 * @module The node's JSON of stored transactions inside JSON that PostgreSQL builds. A transaction is stored in its
 * binary form (chain/stored-tx.ts), which SQL cannot render (Base58), so the SQL puts a placeholder string where the
 * JSON goes, carrying the stored bytes in hex, and renderPlaceholders swaps each for the rendering. A placeholder
 * starts with U+0001 and a random key of this process, passed as a literal: no string stored from the chain can
 * imitate one.
 */
import { randomBytes } from 'node:crypto';
import { stringifyJson, type Json } from '../../chain/json.ts';
import { encodedStoredTx, renderStoredTx, type SignedTxJson } from '../../chain/stored-tx.ts';

const KEY = randomBytes(8).toString('hex');

/** A stored transaction with its place and block, its tx object rendered (withTxObjects): an event of a name or oracle. */
export interface TxInBlockRow {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly blockHash: string;
  readonly blockTime: string;
  readonly txHash: string;
  readonly txType: string;
  readonly tx: { [key: string]: Json };
}

/** What a placeholder stands for. */
const KINDS = {
  /** the GenericSignedTx members `"signatures": […], "tx": {…}` in place of the member `"tx": <placeholder>`; no `signatures` for a GAMetaTx */
  members: 'm',
  /**
   * the members a 7.x node prints: `"encoded_tx": "tx_…"` (chain/stored-tx.ts encodedStoredTx: none for a
   * transaction kept as JSON that the node sent without it), then `signatures` and `tx` as `members` has them
   */
  nodeMembers: 'n',
  /** the signatures as an array (null for a GAMetaTx) */
  signatures: 'a',
  /** the signatures as one space-separated string (null for a GAMetaTx): the original middleware's RawTx */
  signaturesText: 's',
  /** the tx object */
  tx: 't',
} as const;
type Kind = keyof typeof KINDS;

/** placeholderSql is the SQL (a text) of the placeholder for `kind` of the stored transaction `alias`. */
export function placeholderSql(alias: string, kind: Kind): string {
  return `(chr(1) || '${KEY}${KINDS[kind]}' || encode(${alias}.signed, 'hex'))`;
}

// jsonb::text prints `"k": v`, json_build_object `"k" : v`
const PLACEHOLDER = new RegExp(`(?:"tx"\\s*:\\s*)?"\\\\u0001${KEY}([mnast])([0-9a-f]*)"`, 'g');

/** renderPlaceholders replaces every placeholder in PostgreSQL's JSON text by the transaction's JSON. */
export function renderPlaceholders(text: string): string {
  if (!text.includes(KEY)) return text;
  const rendered = new Map<string, SignedTxJson>();
  return text.replace(PLACEHOLDER, (whole, kind: string, hex: string) => {
    let signed = rendered.get(hex);
    if (!signed) {
      signed = renderStoredTx(Buffer.from(hex, 'hex'));
      rendered.set(hex, signed);
    }
    const sigs = signed.signatures;
    switch (kind) {
      case 'm':
      case 'n': {
        if (!whole.startsWith('"tx"')) throw new TypeError('a members placeholder must be the value of "tx"');
        const tx = `"tx": ${stringifyJson(signed.tx)}`;
        const members = sigs === null ? tx : `"signatures": ${stringifyJson(sigs)}, ${tx}`;
        const encoded = kind === 'n' ? encodedStoredTx(Buffer.from(hex, 'hex')) : null;
        return encoded === null ? members : `"encoded_tx": "${encoded}", ${members}`;
      }
      case 'a':
        return keepKey(whole, stringifyJson(sigs));
      case 's':
        return keepKey(whole, sigs === null ? 'null' : stringifyJson(sigs.join(' ')));
      default:
        return keepKey(whole, stringifyJson(signed.tx));
    }
  });
}

/** keepKey puts back the `"tx": ` a match may have swallowed in front of a placeholder that is not a members one. */
function keepKey(whole: string, value: string): string {
  return whole.startsWith('"tx"') ? `"tx": ${value}` : value;
}

/**
 * withTxObjects renders the stored forms selected under the given column names (`t.signed AS tx`) into the node's tx
 * objects (null stays null).
 */
export function withTxObjects<R>(rows: readonly Record<string, unknown>[], ...columns: readonly string[]): R[] {
  return rows.map((r) => {
    const out = { ...r };
    for (const c of columns) {
      const stored = r[c];
      if (stored !== null && stored !== undefined) out[c] = renderStoredTx(stored as Uint8Array).tx;
    }
    return out as R;
  });
}
