/** @module The labels every object of the app carries, its CRD and its operands alike. Pure. */

/** Recommended label keys (https://kubernetes.io/docs/concepts/overview/working-with-objects/common-labels/). */
export const LABEL_NAME = 'app.kubernetes.io/name';
export const LABEL_INSTANCE = 'app.kubernetes.io/instance';
export const LABEL_COMPONENT = 'app.kubernetes.io/component';
export const LABEL_PART_OF = 'app.kubernetes.io/part-of';
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';

/** APP_NAME is the value of app.kubernetes.io/name on every operand and on the CRD. */
export const APP_NAME = 'aeternity-middleware';
