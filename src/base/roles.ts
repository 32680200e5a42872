/** @module What every long-running role (populator, server, devnode, operator) gives its caller. */

/** Role is started by the CLI and stopped on SIGTERM/SIGINT. */
export interface Role {
  readonly name: string;
  /** stop finishes the current unit of work (a batch, a request), then releases every resource. */
  stop(): Promise<void>;
}
