/**
 * @module GraphQL documents parsed and validated, kept by their text: clients send the same few queries again and
 * again. The cache is bounded by what its documents hold on the heap, not by their texts' length: a parsed document
 * keeps an AST node and a token (its location) for every token of its text, some 250–480 bytes each, so a text of
 * short names costs two hundred times its length. Bounded by text, hostile distinct queries of 64 KB held half a
 * gigabyte.
 */
import { GraphQLError, parse, specifiedRules, validate, visit, type DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import { shapeOf, type DocumentShape } from './document-shape.ts';
import { IntrospectionCountRule } from './introspection-rule.ts';
import { SCHEMA } from './schema.ts';

/** MAX_TOKENS: the most tokens a document may have (parse stops there with a syntax error). */
export const MAX_TOKENS = 4000;
/**
 * MAX_FIELDS: the most fields a document may select, counted before validation. graphql-js's check that fields of one
 * response name can merge compares them pairwise: 3300 selections took 40–60 ms to validate, 256 take under 8 ms.
 * GraphiQL's introspection query selects 73.
 */
export const MAX_FIELDS = 256;
/** TOKEN_BYTES: a parsed token's heap, its AST node and location included (graphql 16 on Node 24 measured 250–480) */
export const TOKEN_BYTES = 512;
/** CACHE_BYTES: the heap the cached documents may hold (a page query of 40 tokens takes 20 KB: some 800 of them) */
export const CACHE_BYTES = 16 * 1024 * 1024;

/** RULES: graphql-js's own and a bound on introspection fields. */
const RULES = [...specifiedRules, IntrospectionCountRule];

/** A valid document and its shape (document-shape.ts). */
export interface CheckedDocument {
  readonly document: DocumentNode;
  readonly shape: DocumentShape;
}

type Checked = CheckedDocument | readonly GraphQLError[];

const documents = new LRUCache<string, { readonly checked: Checked; readonly bytes: number }>({
  maxSize: CACHE_BYTES,
  sizeCalculation: (entry) => entry.bytes,
});

/** The shapes (document-shape.ts) of documents found valid: another text of one of them is valid too. */
const validShapes = new LRUCache<string, true>({
  maxSize: 8 * 1024 * 1024,
  sizeCalculation: (_value, shape) => shape.length + 1,
});

/** checkedDocument is a query's document with its shape, or its syntax or validation errors. */
export function checkedDocument(query: string): Checked {
  const known = documents.get(query);
  if (known) return known.checked;
  let checked: Checked;
  let bytes = query.length + 1;
  try {
    const document = parse(query, { maxLexicalTokens: MAX_TOKENS });
    // validation errors point into the document, so they keep it alive as much as the document itself
    bytes = documentBytes(query, document);
    const fields = fieldCount(document);
    if (fields > MAX_FIELDS) {
      checked = [new GraphQLError(`the document selects ${fields} fields, more than ${MAX_FIELDS}`)];
      documents.set(query, { checked, bytes: query.length + 1 });
      return checked;
    }
    const shape = shapeOf(SCHEMA, query, document);
    const invalid = validShapes.has(shape.text) ? [] : validate(SCHEMA, document, RULES);
    if (invalid.length === 0) validShapes.set(shape.text, true);
    checked = invalid.length > 0 ? invalid : { document, shape };
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    checked = [err];
  }
  documents.set(query, { checked, bytes });
  return checked;
}

/** fieldCount is how many fields a document selects, in its operations and fragments (each written once). Pure. */
export function fieldCount(document: DocumentNode): number {
  let fields = 0;
  visit(document, {
    Field() {
      fields++;
    },
  });
  return fields;
}

/** documentBytes is what a parsed document of this text holds on the heap, at most: its text and its tokens. Pure. */
export function documentBytes(query: string, document: DocumentNode): number {
  let tokens = 0;
  for (let token = document.loc?.startToken ?? null; token !== null; token = token.next) tokens++;
  return 2 * query.length + TOKEN_BYTES * tokens;
}
