/**
 * @module Every /mdw/v3 answer's shape table, from which the /v3/api document's components (rest/api-document.ts)
 * are generated; the GraphQL object types are generated from the same tables (graphql/types-*.ts). A new answer's
 * table is added here (docs/architecture.md, "Adding a shape").
 */
import type { Shape } from '../../../shapes/shape-table.ts';
import { KEY_BLOCK, MICRO_BLOCK } from '../../../shapes/v3/shapes-blocks.ts';
import { ACTIVITY, PENDING_TRANSACTION, TRANSACTION, TRANSFER } from '../../../shapes/v3/shapes-tx.ts';

/** V3_SHAPES: the answers' tables, in the order of the document's components. */
export const V3_SHAPES: readonly Shape[] = [
  KEY_BLOCK,
  MICRO_BLOCK,
  TRANSACTION,
  PENDING_TRANSACTION,
  ACTIVITY,
  TRANSFER,
];
