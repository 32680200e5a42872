/** @module The values of the spec's enumerated fields: the field table (spec-fields.ts) and the code that reads them. */

/** enumeration is the `{ Name: 'Name' }` object of a list of names, each written once (LogLevel.info is 'info'). */
export function enumeration<const N extends string>(...names: N[]): { readonly [K in N]: K } {
  return Object.freeze(Object.fromEntries(names.map((n) => [n, n]))) as { readonly [K in N]: K };
}

/** ReloadStrategy: BlueGreen builds a new generation beside the serving one; InPlace re-runs heights on the active one. */
export const ReloadStrategy = { BlueGreen: 'BlueGreen', InPlace: 'InPlace' } as const;
export type ReloadStrategy = (typeof ReloadStrategy)[keyof typeof ReloadStrategy];

/** ReclaimPolicy: what deleting a Middleware does to its schemas (Retain keeps them, as CNPG does for databases). */
export const ReclaimPolicy = { Retain: 'Retain', Delete: 'Delete' } as const;
export type ReclaimPolicy = (typeof ReclaimPolicy)[keyof typeof ReclaimPolicy];

/** PullPolicy mirrors the container imagePullPolicy values. */
export const PullPolicy = { Always: 'Always', IfNotPresent: 'IfNotPresent', Never: 'Never' } as const;
export type PullPolicy = (typeof PullPolicy)[keyof typeof PullPolicy];

/** ServiceType: the Service types a Middleware may ask for its HTTP/websocket Service. */
export const ServiceType = { ClusterIP: 'ClusterIP', NodePort: 'NodePort', LoadBalancer: 'LoadBalancer' } as const;
export type ServiceType = (typeof ServiceType)[keyof typeof ServiceType];

/** RootV3: what the servers' root /v3 is (ROOT_V3): the node's API, as a gateway lays it out, or ae_mdw's (before that). */
export const RootV3 = { node: 'node', mdw: 'mdw' } as const;
export type RootV3 = (typeof RootV3)[keyof typeof RootV3];

/** LogLevel: the LOG_LEVEL values the middleware accepts (src/config/). */
export const LogLevel = enumeration('trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent');
export type LogLevel = (typeof LogLevel)[keyof typeof LogLevel];
