/** @module Which browser origins CORS_ORIGINS lets in: the HTTP API's CORS headers and the websocket's handshake. Pure. */

/** isListedOrigin is true for an Origin named in CORS_ORIGINS (not merely allowed by `*`). */
export function isListedOrigin(allowed: readonly string[], origin: string): boolean {
  return origin !== '' && origin !== '*' && allowed.includes(origin);
}

/**
 * originAllowed tells whether a websocket handshake may go on: a browser always sends its page's Origin, so with
 * CORS_ORIGINS restricted a page elsewhere cannot open a socket as its user; a client that sends none (not a
 * browser) is not a page and goes on, as it would through the HTTP API.
 */
export function originAllowed(allowed: readonly string[], origin: string | undefined): boolean {
  return origin === undefined || allowed.includes('*') || isListedOrigin(allowed, origin);
}
