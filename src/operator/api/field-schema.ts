/** @module The CRD's structural schema of a field of the table (field.ts): keywords, description, children, CEL rules. Pure. */
import type { JsonSchema } from './crd-schema.ts';
import type { Field } from './field.ts';

/** fieldSchema is the OpenAPI v3 schema of a field and everything under it. */
export function fieldSchema(field: Field): JsonSchema {
  const schema: JsonSchema = { ...field.schema };
  if (field.doc !== undefined) schema.description = field.doc;
  if (field.properties !== undefined)
    schema.properties = Object.fromEntries(Object.entries(field.properties).map(([k, f]) => [k, fieldSchema(f)]));
  if (field.required !== undefined) schema.required = [...field.required];
  if (field.items !== undefined) schema.items = fieldSchema(field.items);
  if (field.values !== undefined) schema.additionalProperties = fieldSchema(field.values);
  if (field.rules.length > 0)
    schema['x-kubernetes-validations'] = field.rules.map(({ rule, message, messageExpression, fieldPath }) => ({
      rule,
      message,
      ...(messageExpression === undefined ? {} : { messageExpression }),
      ...(fieldPath === undefined ? {} : { fieldPath }),
    }));
  return schema;
}
