/** @module The node's /v3 `int-as-string` query parameter, read as the node reads it. Pure. */

/** IntAsString is the parameter's reading: the flag, or the text the node refuses (400 validation_error). */
export type IntAsString = boolean | { readonly invalid: string };

const NAME = 'int-as-string';

/**
 * intAsStringParam reads `int-as-string` from a raw query string as the node's validator does: the
 * first occurrence counts; absent is false; a bare `int-as-string` (no `=`) is true (cowboy reads it as
 * the atom `true`); a value is `true` or `false` in any case, anything else is refused with its text.
 */
export function intAsStringParam(querystring: string): IntAsString {
  for (const pair of querystring.split('&')) {
    const eq = pair.indexOf('=');
    if (decodeQueryText(eq === -1 ? pair : pair.slice(0, eq)) !== NAME) continue;
    if (eq === -1) return true;
    const value = decodeQueryText(pair.slice(eq + 1));
    const lower = value.toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : { invalid: value };
  }
  return false;
}

/** decodeQueryText undoes form encoding (`+` a space, `%xx` a byte); a malformed escape stays as written. */
function decodeQueryText(text: string): string {
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
