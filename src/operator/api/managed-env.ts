/**
 * @module The variables the operator sets on the middleware's containers itself, which spec.server.env and
 * spec.populator.env may not name: each with the field that sets it (read from the field table, which holds the rule
 * that refuses them: spec-fields.ts gives it here) or why it is fixed. Pure.
 */
import { fieldsWithEnv, type Field } from './field.ts';

/** MANAGED_ENV_PREFIX starts every refusal, after the variable's name. */
export const MANAGED_ENV_PREFIX = 'is set by the operator';
const from = (field: string): string => `from ${field}: set that instead`;
const fixed = (why: string): string => `(${why}) and cannot be changed`;

/** NOT_FROM_A_FIELD: the variables no single field of the table sets. */
const NOT_FROM_A_FIELD: Readonly<Record<string, string>> = {
  DATABASE_SCHEMA: from('spec.database.schemaPrefix and the generation'),
  DATABASE_CONFIG_SCHEMA: from('spec.database.schemaPrefix'),
  PORT: fixed("the containers' ports; spec.server.http.port sets the Service's"),
  WEBSOCKET_ADDRESS: fixed("the containers' ports; spec.server.websocket.port sets the Service's"),
  NODE_OPTIONS: fixed("each role's V8 settings, measured in docs/benchmarks.md"),
  WRITER_LEASE_NAME: fixed("the generation's writer Lease"),
  POD_NAME: fixed("the pod's own name, for its Leases"),
  POD_NAMESPACE: fixed("the pod's own namespace, for its Leases"),
  MIDDLEWARE_UID: fixed("the Middleware's uid, the owner its schemas record"),
  MIDDLEWARE_NAME: fixed("the Middleware's namespace/name, the owner its schemas record"),
};

const managed = new WeakMap<Field, Readonly<Record<string, string>>>();

/**
 * managedEnvOf: every variable a pod builder of src/operator/specs sets (test/operator/specs/roles.test.ts checks that
 * none is missing), mapped to the end of the sentence that refuses it in spec.*.env (after MANAGED_ENV_PREFIX): the
 * variables the fields of `table` set, and those no single field sets. Read once per table.
 */
export function managedEnvOf(table: Field): Readonly<Record<string, string>> {
  let env = managed.get(table);
  if (env === undefined) {
    env = Object.freeze({
      ...Object.fromEntries(fieldsWithEnv(table, 'spec').map(({ path, env: name }) => [name, from(path)])),
      ...NOT_FROM_A_FIELD,
    });
    managed.set(table, env);
  }
  return env;
}

/** managedEnvProblemOf is why spec.*.env may not name `name` under `table`, or undefined when it may. */
export function managedEnvProblemOf(table: Field, name: string): string | undefined {
  const all = managedEnvOf(table);
  const rest = Object.hasOwn(all, name) ? all[name] : undefined;
  return rest === undefined ? undefined : `${name} ${MANAGED_ENV_PREFIX} ${rest}`;
}
