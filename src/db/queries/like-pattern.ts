/** @module LIKE patterns of a user's text, which matches itself in them (its `%`, `_` and `\` escaped). */

/** escapeLike makes a text match itself in LIKE. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** containing is the LIKE pattern of the texts that hold `text` (as `strpos(…, text) > 0` finds them). */
export const containing = (text: string): string => `%${escapeLike(text)}%`;
