/** @module Validation of a Middleware object: every problem at once, each with its field path. Pure. */
import {
  API_VERSION,
  KIND,
  LogLevel,
  PullPolicy,
  ReclaimPolicy,
  ReloadStrategy,
  RootV3,
  ServiceType,
} from './middleware-types.ts';
import type { Middleware } from './middleware-types.ts';
import { BOUNDS, PATTERNS } from './patterns.ts';
import { SPEC_DEFAULTS } from './defaults.ts';
import { managedEnvProblem } from './managed-env.ts';
import { parseProxyEntry } from '../../client-address.ts';

/** Problem is one invalid field: a dotted path ("spec.server.replicas") and what is wrong with it. */
export interface Problem {
  readonly path: string;
  readonly message: string;
}

type Range = { readonly min: number; readonly max: number };
type Obj = Record<string, unknown>;

/** validateMiddleware checks an object read from the cluster (or a file) and returns all problems; [] means valid. */
export function validateMiddleware(value: unknown): Problem[] {
  const c = new Checker();
  if (!isObj(value)) return [{ path: '', message: 'must be an object' }];
  if (value.apiVersion !== API_VERSION) c.fail('apiVersion', `must be ${API_VERSION}`);
  if (value.kind !== KIND) c.fail('kind', `must be ${KIND}`);
  const metadata = c.object(value, 'metadata', 'metadata', true);
  if (metadata) c.string(metadata, 'name', 'metadata.name', PATTERNS.instanceName, BOUNDS.instanceNameLength, true);
  const spec = c.object(value, 'spec', 'spec', true);
  if (spec) checkSpec(c, spec);
  return c.problems;
}

/** validateUpdate returns the problems of changing `before` into `after` (the CRD's transition rules). */
export function validateUpdate(before: Middleware, after: Middleware): Problem[] {
  const problems: Problem[] = [];
  // once set it stays: unset, the operator would take the Middleware's default, another prefix than its schemas'
  const prefix = (mw: Middleware) => mw.spec.database?.schemaPrefix;
  if (prefix(before) !== undefined && prefix(before) !== prefix(after)) {
    problems.push({ path: 'spec.database.schemaPrefix', message: IMMUTABLE_PREFIX });
  }
  const a = before.spec.reload;
  const b = after.spec.reload;
  if (a && b && a.id === b.id && (a.strategy !== b.strategy || a.heights !== b.heights)) {
    problems.push({ path: 'spec.reload', message: RELOAD_NEEDS_NEW_ID });
  }
  return problems;
}

/** formatProblems renders problems as one line each ("spec.nodeUrls: must have at least 1 item"). */
export function formatProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.path || '<root>'}: ${p.message}`).join('\n');
}

/** Messages shared with the CRD's CEL rules so kubectl and the operator say the same thing. */
export const IMMUTABLE_PREFIX =
  'schemaPrefix is immutable (once set, it cannot be changed or removed): existing generations live under it';
export const RELOAD_NEEDS_NEW_ID = 'strategy and heights of a reload cannot change; request a new reload with a new id';
export const INPLACE_NEEDS_HEIGHTS = 'strategy InPlace requires heights';
export const PDB_EXCLUSIVE = 'set at most one of minAvailable and maxUnavailable';
export const AUTOSCALING_BOUNDS = 'minReplicas must not exceed maxReplicas';
export const READ_REPLICAS_ONE_SOURCE = 'set exactly one of cnpg and urlsSecretRef';
export const ENV_VALUE_OR_SOURCE = 'set at most one of value and valueFrom';
export const ENV_ONE_SOURCE = 'set exactly one of secretKeyRef, configMapKeyRef, fieldRef and resourceFieldRef';
export const NOT_AN_ADDRESS = 'must be an IP address or CIDR network (10.0.0.0/8, fd00::/8)';
export const REPLICAS_WITHIN_AUTOSCALING =
  'with autoscaling, replicas is owned by the autoscaler and must lie within [minReplicas, maxReplicas]';

function checkSpec(c: Checker, spec: Obj): void {
  const urls = c.array(spec, 'nodeUrls', 'spec.nodeUrls', BOUNDS.nodeUrls, true);
  urls?.forEach((_, i) => c.string(urls, i, `spec.nodeUrls[${i}]`, PATTERNS.httpUrl, BOUNDS.urlLength, true));
  if (urls && new Set(urls).size !== urls.length) c.fail('spec.nodeUrls', 'must not repeat a URL');
  c.string(spec, 'nodeInternalUrl', 'spec.nodeInternalUrl', PATTERNS.httpUrl, BOUNDS.urlLength);
  c.string(spec, 'compilerUrl', 'spec.compilerUrl', PATTERNS.httpUrl, BOUNDS.urlLength);
  const db = c.object(spec, 'database', 'spec.database', true);
  if (db) {
    checkSecretKeyRef(c, db, 'urlSecretRef', 'spec.database.urlSecretRef', true);
    c.string(db, 'schemaPrefix', 'spec.database.schemaPrefix', PATTERNS.schemaPrefix, BOUNDS.schemaPrefixLength);
    c.string(db, 'storageCapacity', 'spec.database.storageCapacity', PATTERNS.byteQuantity, 64);
    const replicas = c.object(db, 'readReplicas', 'spec.database.readReplicas');
    if (replicas) checkReadReplicas(c, replicas);
  }
  c.string(spec, 'image', 'spec.image', undefined, 1024);
  c.oneOf(spec, 'imagePullPolicy', 'spec.imagePullPolicy', Object.values(PullPolicy));
  const secrets = c.array(spec, 'imagePullSecrets', 'spec.imagePullSecrets', { min: 0, max: 64 });
  secrets?.forEach((_, i) => {
    const s = c.object(secrets, i, `spec.imagePullSecrets[${i}]`, true);
    if (s)
      c.string(s, 'name', `spec.imagePullSecrets[${i}].name`, PATTERNS.resourceName, BOUNDS.resourceNameLength, true);
  });
  const server = c.object(spec, 'server', 'spec.server');
  if (server) checkServer(c, server);
  const populator = c.object(spec, 'populator', 'spec.populator');
  if (populator) {
    c.object(populator, 'resources', 'spec.populator.resources');
    c.integer(populator, 'batchTransactions', 'spec.populator.batchTransactions', BOUNDS.batchTransactions);
    checkEnv(c, populator, 'spec.populator.env');
  }
  const monitor = c.object(
    c.object(spec, 'metrics', 'spec.metrics') ?? {},
    'serviceMonitor',
    'spec.metrics.serviceMonitor',
  );
  if (monitor) {
    c.boolean(monitor, 'enabled', 'spec.metrics.serviceMonitor.enabled');
    c.string(monitor, 'interval', 'spec.metrics.serviceMonitor.interval', PATTERNS.duration, 32);
  }
  c.integer(spec, 'forkWindow', 'spec.forkWindow', BOUNDS.forkWindow);
  c.integer(spec, 'statusMaxBlockAge', 'spec.statusMaxBlockAge', BOUNDS.statusMaxBlockAge);
  c.oneOf(spec, 'logLevel', 'spec.logLevel', Object.values(LogLevel));
  c.boolean(spec, 'paused', 'spec.paused');
  c.oneOf(spec, 'reclaimPolicy', 'spec.reclaimPolicy', Object.values(ReclaimPolicy));
  const reload = c.object(spec, 'reload', 'spec.reload');
  if (reload) checkReload(c, reload);
  const promotion = c.object(spec, 'promotion', 'spec.promotion');
  if (promotion) {
    c.integer(promotion, 'syncedWithinBlocks', 'spec.promotion.syncedWithinBlocks', BOUNDS.syncedWithinBlocks);
    c.integer(promotion, 'stableWindowSeconds', 'spec.promotion.stableWindowSeconds', BOUNDS.stableWindowSeconds);
  }
}

function checkSecretKeyRef(c: Checker, parent: Obj, key: string, path: string, required = false): void {
  const ref = c.object(parent, key, path, required);
  if (!ref) return;
  c.string(ref, 'name', `${path}.name`, PATTERNS.resourceName, BOUNDS.resourceNameLength, true);
  c.string(ref, 'key', `${path}.key`, PATTERNS.secretKey, BOUNDS.resourceNameLength, true);
}

function checkReadReplicas(c: Checker, replicas: Obj): void {
  const path = 'spec.database.readReplicas';
  const cnpg = c.object(replicas, 'cnpg', `${path}.cnpg`);
  if (cnpg) {
    c.string(cnpg, 'cluster', `${path}.cnpg.cluster`, PATTERNS.instanceName, BOUNDS.cnpgClusterLength, true);
    const secret = `${path}.cnpg.credentialsSecretName`;
    c.string(cnpg, 'credentialsSecretName', secret, PATTERNS.resourceName, BOUNDS.resourceNameLength);
  }
  checkSecretKeyRef(c, replicas, 'urlsSecretRef', `${path}.urlsSecretRef`);
  if ((replicas.cnpg === undefined) === (replicas.urlsSecretRef === undefined)) c.fail(path, READ_REPLICAS_ONE_SOURCE);
  c.integer(replicas, 'maxLagSeconds', `${path}.maxLagSeconds`, BOUNDS.replicaMaxLagSeconds);
}

/** ENV_SOURCES: the keys of a valueFrom, with the fields each must have. */
const ENV_SOURCES: Readonly<Record<string, readonly string[]>> = {
  secretKeyRef: ['name', 'key'],
  configMapKeyRef: ['name', 'key'],
  fieldRef: ['fieldPath'],
  resourceFieldRef: ['resource'],
};

function checkEnv(c: Checker, parent: Obj, path: string): void {
  const env = c.array(parent, 'env', path, BOUNDS.env);
  const seen = new Set<string>();
  env?.forEach((_, i) => {
    const at = `${path}[${i}]`;
    const variable = c.object(env, i, at, true);
    if (!variable) return;
    const name = c.string(variable, 'name', `${at}.name`, PATTERNS.envName, BOUNDS.envNameLength, true);
    if (name !== undefined && seen.has(name)) c.fail(`${at}.name`, `repeats ${name}`);
    if (name !== undefined) seen.add(name);
    const managed = name === undefined ? undefined : managedEnvProblem(name);
    if (managed !== undefined) c.fail(`${at}.name`, managed);
    if (variable.value !== undefined && typeof variable.value !== 'string') c.fail(`${at}.value`, 'must be a string');
    else if (typeof variable.value === 'string' && variable.value.length > BOUNDS.envValueLength)
      c.fail(`${at}.value`, `must be at most ${BOUNDS.envValueLength} characters`);
    const source = c.object(variable, 'valueFrom', `${at}.valueFrom`);
    if (source && variable.value !== undefined) c.fail(at, ENV_VALUE_OR_SOURCE);
    if (source) checkEnvSource(c, source, `${at}.valueFrom`);
  });
}

function checkEnvSource(c: Checker, source: Obj, path: string): void {
  const given = Object.keys(source);
  const unknown = given.filter((key) => !Object.hasOwn(ENV_SOURCES, key));
  for (const key of unknown) c.fail(`${path}.${key}`, 'is not a source this operator passes on');
  if (given.length - unknown.length !== 1) c.fail(path, ENV_ONE_SOURCE);
  for (const [key, required] of Object.entries(ENV_SOURCES)) {
    const ref = c.object(source, key, `${path}.${key}`);
    if (ref) for (const field of required) c.string(ref, field, `${path}.${key}.${field}`, undefined, 1024, true);
  }
}

function checkServer(c: Checker, server: Obj): void {
  const replicas = c.integer(server, 'replicas', 'spec.server.replicas', BOUNDS.replicas);
  c.object(server, 'resources', 'spec.server.resources');
  const http = c.object(server, 'http', 'spec.server.http');
  if (http) {
    c.oneOf(http, 'type', 'spec.server.http.type', Object.values(ServiceType));
    c.integer(http, 'port', 'spec.server.http.port', BOUNDS.port);
  }
  const ws = c.object(server, 'websocket', 'spec.server.websocket');
  if (ws) c.integer(ws, 'port', 'spec.server.websocket.port', BOUNDS.port);
  c.oneOf(server, 'rootV3', 'spec.server.rootV3', Object.values(RootV3));
  const proxies = c.array(server, 'trustedProxies', 'spec.server.trustedProxies', BOUNDS.trustedProxies);
  proxies?.forEach((_, i) => {
    const at = `spec.server.trustedProxies[${i}]`;
    const entry = c.string(proxies, i, at, undefined, BOUNDS.addressOrNetworkLength, true);
    if (entry !== undefined && parseProxyEntry(entry) === undefined) c.fail(at, NOT_AN_ADDRESS);
  });
  checkEnv(c, server, 'spec.server.env');
  const ingress = c.object(server, 'ingress', 'spec.server.ingress');
  if (ingress) {
    c.string(ingress, 'className', 'spec.server.ingress.className', PATTERNS.resourceName, BOUNDS.resourceNameLength);
    c.string(ingress, 'host', 'spec.server.ingress.host', PATTERNS.host, BOUNDS.resourceNameLength, true);
    c.string(
      ingress,
      'tlsSecretName',
      'spec.server.ingress.tlsSecretName',
      PATTERNS.resourceName,
      BOUNDS.resourceNameLength,
    );
    c.stringMap(ingress, 'annotations', 'spec.server.ingress.annotations');
    c.string(ingress, 'websocketPath', 'spec.server.ingress.websocketPath', PATTERNS.path, 1024);
  }
  const pdb = c.object(server, 'pdb', 'spec.server.pdb');
  if (pdb) {
    c.boolean(pdb, 'enabled', 'spec.server.pdb.enabled');
    const min = c.integer(pdb, 'minAvailable', 'spec.server.pdb.minAvailable', BOUNDS.pdbCount);
    const max = c.integer(pdb, 'maxUnavailable', 'spec.server.pdb.maxUnavailable', BOUNDS.pdbCount);
    if (min !== undefined && max !== undefined) c.fail('spec.server.pdb', PDB_EXCLUSIVE);
  }
  const hpa = c.object(server, 'autoscaling', 'spec.server.autoscaling');
  if (hpa) {
    const path = 'spec.server.autoscaling';
    const min =
      c.integer(hpa, 'minReplicas', `${path}.minReplicas`, BOUNDS.autoscalingReplicas) ??
      SPEC_DEFAULTS.autoscalingMinReplicas;
    const max = c.integer(hpa, 'maxReplicas', `${path}.maxReplicas`, BOUNDS.autoscalingReplicas, true);
    c.integer(hpa, 'targetCPUUtilizationPercentage', `${path}.targetCPUUtilizationPercentage`, BOUNDS.cpuPercent);
    if (max !== undefined && min > max) c.fail(path, AUTOSCALING_BOUNDS);
    const r = replicas ?? SPEC_DEFAULTS.serverReplicas;
    if (max !== undefined && min <= max && (r < min || r > max)) c.fail('spec.server', REPLICAS_WITHIN_AUTOSCALING);
  }
}

function checkReload(c: Checker, reload: Obj): void {
  c.string(reload, 'id', 'spec.reload.id', PATTERNS.reloadId, BOUNDS.reloadIdLength, true);
  const heights = c.string(reload, 'heights', 'spec.reload.heights', PATTERNS.heights, BOUNDS.heightsLength);
  const strategy = c.oneOf(reload, 'strategy', 'spec.reload.strategy', Object.values(ReloadStrategy));
  c.boolean(reload, 'autoPromote', 'spec.reload.autoPromote');
  c.string(reload, 'retainPrevious', 'spec.reload.retainPrevious', PATTERNS.duration, 32);
  c.string(reload, 'deadline', 'spec.reload.deadline', PATTERNS.duration, 32);
  if (strategy === ReloadStrategy.InPlace && heights === undefined) c.fail('spec.reload', INPLACE_NEEDS_HEIGHTS);
}

/** Checker reads one field at a time, records a problem for each bad one and returns the good values. */
class Checker {
  readonly problems: Problem[] = [];

  fail(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  #get(parent: Obj | unknown[], key: string | number, path: string, required: boolean): unknown {
    const value = (parent as Record<string | number, unknown>)[key];
    if (value === undefined && required) this.fail(path, 'is required');
    return value;
  }

  object(parent: Obj | unknown[], key: string | number, path: string, required = false): Obj | undefined {
    const v = this.#get(parent, key, path, required);
    if (v === undefined) return undefined;
    if (isObj(v)) return v;
    this.fail(path, 'must be an object');
    return undefined;
  }

  array(parent: Obj, key: string, path: string, size: Range, required = false): unknown[] | undefined {
    const v = this.#get(parent, key, path, required);
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return this.#bad(path, 'must be a list');
    if (v.length < size.min) this.fail(path, `must have at least ${size.min} item${size.min === 1 ? '' : 's'}`);
    if (v.length > size.max) this.fail(path, `must have at most ${size.max} items`);
    return v;
  }

  string(
    parent: Obj | unknown[],
    key: string | number,
    path: string,
    pattern: string | undefined,
    maxLength: number,
    required = false,
  ): string | undefined {
    const v = this.#get(parent, key, path, required);
    if (v === undefined) return undefined;
    if (typeof v !== 'string') return this.#bad(path, 'must be a string');
    if (v.length === 0) return this.#bad(path, 'must not be empty');
    if (v.length > maxLength) return this.#bad(path, `must be at most ${maxLength} characters`);
    if (pattern !== undefined && !new RegExp(pattern).test(v)) return this.#bad(path, `must match ${pattern}`);
    return v;
  }

  integer(parent: Obj, key: string, path: string, range: Range, required = false): number | undefined {
    const v = this.#get(parent, key, path, required);
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v)) return this.#bad(path, 'must be an integer');
    if (v < range.min || v > range.max) return this.#bad(path, `must be between ${range.min} and ${range.max}`);
    return v;
  }

  boolean(parent: Obj, key: string, path: string): boolean | undefined {
    const v = this.#get(parent, key, path, false);
    if (v === undefined || typeof v === 'boolean') return v;
    return this.#bad(path, 'must be true or false');
  }

  oneOf<T extends string>(parent: Obj, key: string, path: string, allowed: readonly T[]): T | undefined {
    const v = this.#get(parent, key, path, false);
    if (v === undefined) return undefined;
    if ((allowed as readonly unknown[]).includes(v)) return v as T;
    return this.#bad(path, `must be one of ${allowed.join(', ')}`);
  }

  stringMap(parent: Obj, key: string, path: string): void {
    const map = this.object(parent, key, path);
    for (const [k, v] of Object.entries(map ?? {}))
      if (typeof v !== 'string') this.fail(`${path}.${k}`, 'must be a string');
  }

  #bad(path: string, message: string): undefined {
    this.fail(path, message);
    return undefined;
  }
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
