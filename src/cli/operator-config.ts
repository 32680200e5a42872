/** @module The operator's environment (set by the chart or `mdw manifests`), validated. Pure. */
import { hostname } from 'node:os';

export interface OperatorConfig {
  /** Image the Middleware's pods run when spec.image is unset (the operator's own image). */
  readonly image: string;
  /** Watch one namespace; undefined watches all. */
  readonly watchNamespace: string | undefined;
  /** Where the leader Lease lives: the operator's own namespace. */
  readonly leaseNamespace: string;
  readonly leaseName: string | undefined;
  /** This replica's identity in the Lease. */
  readonly identity: string;
  readonly port: number;
  readonly logLevel: string;
}

/** loadOperatorConfig reads MIDDLEWARE_IMAGE, WATCH_NAMESPACE, POD_NAME, POD_NAMESPACE, LEADER_LEASE_NAME, PORT, LOG_LEVEL. */
export function loadOperatorConfig(env: Readonly<Record<string, string | undefined>>): OperatorConfig {
  const problems: string[] = [];
  const image = env.MIDDLEWARE_IMAGE?.trim();
  if (!image) problems.push('MIDDLEWARE_IMAGE: required (the image the middleware pods run)');
  const port = Number(env.PORT ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT: expected 0..65535, got ${JSON.stringify(env.PORT)}`);
  if (problems.length > 0) throw new Error(`invalid operator configuration:\n  ${problems.join('\n  ')}`);
  return Object.freeze({
    image: image!,
    watchNamespace: env.WATCH_NAMESPACE?.trim() || undefined,
    leaseNamespace: env.POD_NAMESPACE?.trim() || 'default',
    leaseName: env.LEADER_LEASE_NAME?.trim() || undefined,
    identity: env.POD_NAME?.trim() || hostname(),
    port,
    logLevel: env.LOG_LEVEL?.trim() || 'info',
  });
}
