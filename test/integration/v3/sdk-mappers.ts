/**
 * @module ae_mdw's response schemas as the SDK's generated client carries them (its autorest mappers, built from
 * ae_mdw's swagger_v3.json): the mapper of an operation's answer, and the places where a JSON answer breaks it —
 * a required field missing, a null where none is allowed, a value of the wrong type, an enum value or pattern not
 * allowed. Extra fields are allowed (ae_mdw's later versions add some; the SDK ignores them).
 */
import { operationSpecs } from '../../../node_modules/@aeternity/aepp-sdk/es/apis/middleware/middleware.js';
import * as mappers from '../../../node_modules/@aeternity/aepp-sdk/es/apis/middleware/models/mappers.js';
import type { Json } from '../../../src/chain/json.ts';

/** An autorest mapper, as far as the middleware's models use it. */
export interface Mapper {
  readonly serializedName?: string;
  readonly required?: boolean;
  readonly nullable?: boolean;
  readonly isConstant?: boolean;
  readonly defaultValue?: unknown;
  readonly constraints?: {
    readonly Pattern?: RegExp;
    readonly InclusiveMinimum?: number;
    readonly InclusiveMaximum?: number;
    readonly MinItems?: number;
    readonly MaxItems?: number;
  };
  readonly type: {
    readonly name: string;
    readonly className?: string;
    readonly modelProperties?: Record<string, Mapper>;
    readonly polymorphicDiscriminator?: { readonly serializedName: string };
    readonly element?: Mapper;
    readonly value?: Mapper;
    readonly allowedValues?: readonly unknown[];
  };
}

/** How integers are written: JSON integers, or with `int-as-string` decimal strings. */
export interface MapperOptions {
  readonly intAsString?: boolean;
}

const MODELS = mappers as unknown as Record<string, Mapper>;
const DIGITS = /^-?[0-9]+$/;

/** route is a path with its parameters' names dropped: `/v3/names/{id}` is `/v3/names/*`. */
const route = (path: string): string => path.replace(/\{[^}]+\}/g, '*');

/** sdkResponseMapper is the mapper of an answer (200 unless `status`) of the SDK's operation at `path` (`/v3/…`), if any. */
export function sdkResponseMapper(path: string, status = 200): Mapper | undefined {
  const spec = (
    operationSpecs as readonly { path?: string; responses: Record<number, { bodyMapper?: Mapper }> }[]
  ).find((s) => s.path !== undefined && route(s.path) === route(path));
  return spec?.responses[status]?.bodyMapper;
}

/** mapperViolations lists where `value` breaks `mapper`, each as `<JSON path>: <what>`; none when it conforms. */
export function mapperViolations(mapper: Mapper, value: Json, options: MapperOptions = {}, at = '$'): string[] {
  if (value === null)
    return mapper.nullable === true || mapper.type.name === 'any' ? [] : [`${at}: null, not ${modelName(mapper)}`];
  if (mapper.isConstant && mapper.defaultValue !== undefined && value !== mapper.defaultValue)
    return [`${at}: ${JSON.stringify(value)}, not the constant ${JSON.stringify(mapper.defaultValue)}`];
  const { type } = mapper;
  // made only where the value is wrong: a list's answer was serialized whole at each of its values' checks
  const wrong = (): string[] => [`${at}: ${brief(value)}, not ${modelName(mapper)}`];
  switch (type.name) {
    case 'String':
      if (typeof value !== 'string') return wrong();
      return mapper.constraints?.Pattern && !mapper.constraints.Pattern.test(value)
        ? [`${at}: ${JSON.stringify(value)} does not match ${String(mapper.constraints.Pattern)}`]
        : [];
    case 'Number':
    case 'BigInt':
    case 'UnixTime':
      return isNumberOf(type.name, value, options) ? bounds(mapper, value as number | bigint | string, at) : wrong();
    case 'Boolean':
      return typeof value === 'boolean' ? [] : wrong();
    case 'Enum':
      return type.allowedValues?.includes(value) ? [] : [`${at}: ${JSON.stringify(value)} is not one of its enum`];
    case 'Sequence': {
      if (!Array.isArray(value)) return wrong();
      const { MinItems = 0, MaxItems = Infinity } = mapper.constraints ?? {};
      const count = value.length < MinItems || value.length > MaxItems ? [`${at}: ${value.length} items`] : [];
      return [...count, ...value.flatMap((item, i) => mapperViolations(type.element!, item, options, `${at}[${i}]`))];
    }
    case 'Dictionary':
      if (!isObject(value)) return wrong();
      return Object.entries(value).flatMap(([k, v]) => mapperViolations(type.value!, v, options, `${at}.${k}`));
    case 'Composite':
      return isObject(value) ? compositeViolations(mapper, value, options, at) : wrong();
    case 'any':
    case 'Object':
      return [];
    default:
      return [`${at}: the mapper type ${type.name} is not known to this check`];
  }
}

/** compositeViolations checks an object against a model's properties (the model's own, by class name, when only named). */
function compositeViolations(
  mapper: Mapper,
  value: { [k: string]: Json },
  options: MapperOptions,
  at: string,
): string[] {
  const model = mapper.type.modelProperties ? mapper : MODELS[mapper.type.className!];
  if (!model) return [`${at}: the SDK has no model ${mapper.type.className}`];
  return Object.values(model.type.modelProperties ?? {}).flatMap((property) => {
    const name = property.serializedName!;
    const field = value[name];
    if (field === undefined) return property.required ? [`${at}.${name}: missing (required)`] : [];
    return mapperViolations(property, field, options, `${at}.${name}`);
  });
}

/** summarize groups violations by their place with item indices dropped (`$.data[].hash`), with counts: one line each. */
export function summarize(violations: readonly string[]): string[] {
  const groups = new Map<string, { example: string; n: number }>();
  for (const v of violations) {
    const key = v.replace(/\[\d+\]/g, '[]').replace(/"(?:[^"\\]|\\.)*"/g, '"…"');
    const group = groups.get(key) ?? { example: v, n: 0 };
    group.n++;
    groups.set(key, group);
  }
  return [...groups.values()].map(({ example, n }) => (n > 1 ? `${example} (and ${n - 1} more like it)` : example));
}

function isNumberOf(name: string, value: Json, { intAsString = false }: MapperOptions): boolean {
  const integer = typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
  if (intAsString && typeof value === 'string') return DIGITS.test(value);
  return name === 'Number' ? typeof value === 'number' || typeof value === 'bigint' : integer;
}

function bounds(mapper: Mapper, value: number | bigint | string, at: string): string[] {
  const { InclusiveMinimum = -Infinity, InclusiveMaximum = Infinity } = mapper.constraints ?? {};
  const n = Number(value);
  return n < InclusiveMinimum || n > InclusiveMaximum ? [`${at}: ${String(value)} out of its range`] : [];
}

function isObject(value: Json): value is { [k: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function modelName(mapper: Mapper): string {
  return mapper.type.className ?? mapper.type.name;
}

function brief(value: Json): string {
  const text = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
