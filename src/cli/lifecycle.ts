/** @module Process lifecycle: stop every role cleanly on SIGTERM/SIGINT, reopen logs on SIGHUP. */
import type { Logger, LoggerHandle } from '../base/log.ts';
import type { Role } from '../base/roles.ts';

/**
 * runUntilSignal keeps the roles running until SIGTERM or SIGINT, then stops them in reverse
 * start order (servers before the populator's pool, say) and resolves. A clean stop logs one
 * line (each role's own stop is a debug detail); a role that fails to stop logs an error. A second
 * signal while stopping exits at once with status 130, for a person pressing Ctrl-C twice, a server's
 * SHUTDOWN_DELAY_MS included.
 */
export function runUntilSignal(
  roles: readonly Role[],
  logger: LoggerHandle,
  proc: NodeJS.Process = process,
): Promise<void> {
  const { log } = logger;
  const onHup = () => {
    logger.reopen();
    log.info('log file reopened');
  };
  proc.on('SIGHUP', onHup);
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        log.warn({ signal }, 'second signal, exiting now');
        logger.flush();
        proc.exit(130);
      }
      stopping = true;
      const started = Date.now();
      log.debug({ signal }, 'stopping');
      void stopAll(roles, log).then(() => {
        proc.off('SIGHUP', onHup);
        proc.off('SIGTERM', onSignal);
        proc.off('SIGINT', onSignal);
        log.info({ signal, roles: roles.map((r) => r.name), ms: Date.now() - started }, 'stopped');
        logger.flush();
        resolve();
      });
    };
    proc.on('SIGTERM', onSignal);
    proc.on('SIGINT', onSignal);
  });
}

/**
 * SignalsAtStart answers a SIGTERM or SIGINT that arrives while the roles start: it stops the roles started so far and
 * has the process exit (`exit`: status 0), however long the role starting would still wait (its database, a read
 * replica, a node). Without a listener Node would end the process at once, a role half-started: a server answers on
 * its HTTP port before its websocket has started, and Kubernetes may stop a pod at any moment. A second signal exits
 * at once with status 130.
 */
export class SignalsAtStart {
  readonly #roles: readonly Role[];
  readonly #logger: LoggerHandle;
  readonly #exit: () => void;
  readonly #proc: NodeJS.Process;
  #stopping = false;

  /** `roles` is the list the start fills: the ones in it when a signal comes are stopped */
  constructor(roles: readonly Role[], logger: LoggerHandle, exit: () => void, proc: NodeJS.Process = process) {
    this.#roles = roles;
    this.#logger = logger;
    this.#exit = exit;
    this.#proc = proc;
  }

  readonly #onSignal = (signal: NodeJS.Signals): void => {
    const { log } = this.#logger;
    if (this.#stopping) {
      log.warn({ signal }, 'second signal, exiting now');
      this.#logger.flush();
      this.#proc.exit(130);
      return;
    }
    this.#stopping = true;
    const started = [...this.#roles];
    void stopAll(started, log).then(() => {
      log.info({ signal, roles: started.map((r) => r.name) }, 'stopped while starting');
      this.#logger.flush();
      this.#exit();
    });
  };

  start(): void {
    this.#proc.on('SIGTERM', this.#onSignal);
    this.#proc.on('SIGINT', this.#onSignal);
  }

  /**
   * handOver has runUntilSignal answer the signals once the roles have started, and resolves when it has stopped them;
   * undefined when a signal came while they started (the process is exiting). runUntilSignal listens before this stops
   * listening: Node drops a signal it has received but not yet dispatched once the listeners it was received for are
   * all removed, so a SIGTERM right as the roles had started (the server's port answering) was lost, and the process
   * ran on.
   */
  handOver(): Promise<void> | undefined {
    if (this.#stopping) return undefined;
    const running = runUntilSignal(this.#roles, this.#logger, this.#proc);
    this.stop();
    return running;
  }

  /** stop stops listening (handOver does, once the roles have started). */
  stop(): void {
    this.#proc.off('SIGTERM', this.#onSignal);
    this.#proc.off('SIGINT', this.#onSignal);
  }
}

/** stopAll stops roles in reverse order; one role failing to stop does not keep the others running. */
export async function stopAll(roles: readonly Role[], log: Logger): Promise<void> {
  for (const role of [...roles].reverse()) await stopRole(role, log);
}

/** stopRole stops one role, logging its stop (a debug line) or its failure to stop (an error, not thrown). */
export async function stopRole(role: Role, log: Logger): Promise<void> {
  try {
    await role.stop();
    log.debug({ role: role.name }, 'role stopped');
  } catch (err) {
    log.error({ role: role.name, err }, 'role failed to stop cleanly');
  }
}
