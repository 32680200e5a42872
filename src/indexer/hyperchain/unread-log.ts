/**
 * @module What a hyperchain reader says, once per reader and kind, of consensus contracts that answer what this version
 * does not read: what it then leaves out, the rest being loaded all the same.
 */
import type { Logger } from 'pino';
import type { RewardsUnread } from './rewards.ts';

/** Unread names what was not read: the validator states, a balance in them, what rewards.ts needs. */
export type Unread = 'state' | 'balance' | RewardsUnread;

const WARNINGS: Record<Unread, string> = {
  state:
    'hyperchain: the staking contract answers get_validator_state in a shape this version does not read (a newer ' +
    'contract?): epochs, leaders and stakes are indexed, delegates and rewards are not',
  balance:
    'hyperchain: the staking contract answers get_validator_state with the older get_validator_response record, ' +
    'which states no balance: the rewards validators earned are not indexed (rewards_earned 0)',
  'paid epoch':
    'hyperchain: the election contract does not tell the validators of the epoch an end of epoch pays ' +
    '(epoch_info_epoch): the rewards validators earned are not indexed (rewards_earned 0)',
  record:
    'hyperchain: the staking contract answers get_validator_state or get_state with another record before an end of ' +
    'epoch than at it: the rewards validators earned are not indexed (rewards_earned 0)',
};

/** UnreadLog tells each kind once: a reader meets the same contracts at every boundary. */
export class UnreadLog {
  readonly #log: Pick<Logger, 'warn'> | undefined;
  readonly #told = new Set<Unread>();

  constructor(log: Pick<Logger, 'warn'> | undefined) {
    this.#log = log;
  }

  /** tell logs `what` with the contract and the block it was seen at, the first time. */
  tell(what: Unread, contract: string, at: string): void {
    if (this.#told.has(what)) return;
    this.#told.add(what);
    this.#log?.warn({ contract, at }, WARNINGS[what]);
  }
}
