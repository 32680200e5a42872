/**
 * @module The route label of a GraphQL request in metrics and logs: `/mdw/graphql`, and the operation's name after a
 * `#` where it is one of a bounded set. A label is a time series for ever, and a client names its operations as it
 * likes: a hostile one could send a new name with every request (or names of kilobytes). So a name becomes a label only
 * if it is a short GraphQL name of a valid operation within the limits (depth, cost), about to run, and only the first
 * MAX_OPERATION_LABELS such names do; any other operation is counted as plain `/mdw/graphql`.
 */

/** GRAPHQL_ROUTE: the endpoint's route label, for an operation without a label of its own. */
export const GRAPHQL_ROUTE = '/mdw/graphql';

/** MAX_OPERATION_LABELS: the most operation names labelled (a client's few dozen queries, with room to spare). */
export const MAX_OPERATION_LABELS = 64;

/** A name as GraphQL writes it, at most 64 characters long. */
const LABELLED_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;

/** OperationLabels keeps the operation names that are labels: the first MAX_OPERATION_LABELS of operations to run. */
export class OperationLabels {
  readonly #names = new Set<string>();
  readonly #max: number;

  constructor(max = MAX_OPERATION_LABELS) {
    this.#max = max;
  }

  /** label is the route label of an operation about to run: its name's while names are left, else the endpoint's. */
  label(name: string | undefined): string {
    if (name === undefined || !LABELLED_NAME.test(name)) return GRAPHQL_ROUTE;
    if (!this.#names.has(name)) {
      if (this.#names.size >= this.#max) return GRAPHQL_ROUTE;
      this.#names.add(name);
    }
    return `${GRAPHQL_ROUTE}#${name}`;
  }
}
