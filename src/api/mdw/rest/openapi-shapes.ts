/** @module The OpenAPI components generated from the shape tables (src/shapes/shape-table.ts). Pure. */
import type { Field, Shape, ShapeFields } from '../../../shapes/shape-table.ts';

const INTEGER_TEXT = { type: 'string', pattern: '^-?[0-9]+$' } as const;

/** openApiComponents are the named components of the shapes that have an OpenAPI name, in their order. */
export function openApiComponents(shapes: readonly Shape[]): Record<string, unknown> {
  const components: Record<string, unknown> = {};
  for (const s of shapes) if (s.openapi) components[s.openapi] = openApiObject(s.fields, s.closed ?? false);
  return components;
}

/** openApiObject is the schema of an object with these fields: required but optional ones, other keys allowed unless closed. */
export function openApiObject(fields: ShapeFields, closed = false): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(fields)) {
    if (field.in === 'graphql') continue;
    properties[key] = openApiField(field);
    if (!field.optional) required.push(key);
  }
  return { type: 'object', required, properties, additionalProperties: !closed };
}

/** openApiField is one field's schema. */
export function openApiField(field: Field): Record<string, unknown> {
  if (field.schema) return field.nullable ? { ...field.schema, nullable: true } : { ...field.schema };
  const nullable = field.nullable ? { nullable: true } : {};
  switch (field.kind) {
    case 'bigint':
      // a bare integer, or its decimal text with int-as-string; null goes with the integer
      return { oneOf: [{ type: 'integer', ...nullable }, INTEGER_TEXT] };
    case 'object':
      if (field.fields) return { ...openApiObject(field.fields, field.closed ?? false), ...nullable };
      return { type: 'object', ...nullable };
    case 'array':
      return { type: 'array', ...(field.items ? { items: openApiField(field.items) } : {}), ...nullable };
    default:
      return {
        type: field.kind,
        ...(field.pattern ? { pattern: field.pattern } : {}),
        ...(field.enum ? { enum: field.enum } : {}),
        ...nullable,
      };
  }
}
