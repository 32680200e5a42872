/**
 * @module The call info a contract_calls row stores (migration 1000): the node's, without the members the row keeps in
 * columns of its own (caller_id, contract_id, height), when they hold exactly those values. Pure.
 */
import type { JsonObject } from './rows.ts';
import { stringifyJson } from '../../chain/json.ts';

/** firstNested is where the first value nested in the object `text` starts (its length when none). */
function firstNested(text: string): number {
  const object = text.indexOf('{', 1);
  const array = text.indexOf('[');
  return Math.min(object < 0 ? text.length : object, array < 0 ? text.length : array);
}

/** A stored call info: its JSON text and whether the three members were left out. */
export interface StoredCallInfo {
  readonly text: string;
  readonly trimmed: boolean;
}

const TRIMMED = ['caller_id', 'contract_id', 'height'] as const;

/**
 * withoutMember is `text` (a JSON object, compact as the node writes it) without the member `"key":value`, if it is
 * one of the object's own: before any nested object or array (the node writes the three before `log`).
 */
function withoutMember(text: string, member: string): string | undefined {
  const at = text.indexOf(member);
  if (at < 1 || at > firstNested(text)) return undefined;
  const before = text[at - 1];
  const after = text[at + member.length];
  // a whole member: after `{` or `,`, before `,` or `}` (so "height":12 is not the start of "height":123)
  if ((before !== '{' && before !== ',') || (after !== ',' && after !== '}')) return undefined;
  if (after === ',') return text.slice(0, at) + text.slice(at + member.length + 1);
  return before === ',' ? text.slice(0, at - 1) + text.slice(at + member.length) : undefined;
}

/**
 * storedCallInfo is what the row stores of a call's info: trimmed when caller_id, contract_id and height are the row's
 * (from the node's own text when there is one, else written out), else whole.
 */
export function storedCallInfo(
  info: JsonObject,
  text: string | undefined,
  row: { readonly callerId: string; readonly contractId: string; readonly height: number },
): StoredCallInfo {
  const matches = info.caller_id === row.callerId && info.contract_id === row.contractId && info.height === row.height;
  if (!matches) return { text: text ?? stringifyJson(info), trimmed: false };
  if (text !== undefined) {
    let trimmed: string | undefined = text;
    for (const member of [
      `"caller_id":"${row.callerId}"`,
      `"contract_id":"${row.contractId}"`,
      `"height":${row.height}`,
    ])
      trimmed = trimmed === undefined ? undefined : withoutMember(trimmed, member);
    // a text written otherwise (spaces, escapes) is stored whole, which is as exact
    return trimmed === undefined ? { text, trimmed: false } : { text: trimmed, trimmed: true };
  }
  const rest: JsonObject = {};
  for (const [k, v] of Object.entries(info)) if (!(TRIMMED as readonly string[]).includes(k)) rest[k] = v;
  return { text: stringifyJson(rest), trimmed: true };
}
