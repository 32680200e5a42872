/** @module What the API's Koa middleware pass each other on `ctx.state`: one typed interface, no other key. */
import type Koa from 'koa';

/** ApiState is every key a middleware or route may set on `ctx.state`. */
export interface ApiState {
  /** The request was forwarded to the node: the answer is the node's (no cache headers, not a 404 of ours). */
  forwarded?: boolean;
  /** The height the answer is about: final below the fork window (Cache-Control, ETag, the response cache). */
  aboutHeight?: number;
  /** The answer's JSON text, offered to the response cache (final answers only, never "current"). */
  cacheableJson?: string;
  /** The request is ae_mdw's API: the error boundary answers in its shape, `{"error": …}`. */
  aeMdw?: boolean;
  /** The path prefix an API took off before routing (ae_mdw's `/mdw`): route labels and logs name the path asked. */
  mountedAt?: string;
  /** The request's route label in metrics where no router matched it (GraphQL's, with its operation's name). */
  route?: string;
  /** The request is GraphQL's (/mdw/graphql): the error boundary answers its refusals (4xx) as `{"errors": [{message}]}`. */
  graphql?: boolean;
  /** A node /v3 query asked for `int-as-string`: the answer's integers go out as strings. */
  intsAsStrings?: boolean;
  /**
   * performance.now() when the server first read the request (request-metrics.ts): its admission's wait and deadline
   * count from there, as its duration in the metrics does.
   */
  arrivedAt?: number;
  /**
   * The request's API key (issue 77 part 1's middleware sets it; undefined when keys are off or none was given): what
   * owns a webhook (docs/webhooks.md).
   */
  apiKey?: { id: string; tier: string };
}

/** ApiContext is a request's context in this API. */
export type ApiContext = Koa.ParameterizedContext<ApiState>;

/** ApiMiddleware is a middleware of this API. */
export type ApiMiddleware = Koa.Middleware<ApiState>;
