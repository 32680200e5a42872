/** @module The devnode's name for the shared id encoding helpers (src/chain/id-cache.ts). */
export { base58, encodeFlat, flat, idBytes, withPrefix } from '../chain/id-cache.ts';
