/**
 * @module Read-side SQL of a hyperchain's consensus (migrations/1014_hyperchain.sql): whether the chain is one, its
 * epochs, leader schedule, validators, delegates, rewards and pins, as ae_mdw's `/v3/hyperchain` routes list them.
 * Lists walk by keyset in both directions (positions.ts); stakes and rewards come back as exact bigints.
 */
import type { Queryable } from '../connection/pool.ts';
import { keyset, type PageReader } from './positions.ts';
import { rangePage, type Range, type RangePage } from './range-page.ts';

/** What the populator recorded of the node's `GET /v3/hyperchain/contracts`. */
export interface HyperchainRecord {
  readonly hyperchain: boolean;
  /** the consensus contracts; undefined when the chain is not a hyperchain */
  readonly contracts: HyperchainContracts | undefined;
}

/** The consensus contracts of a hyperchain (`ct_…`). */
export interface HyperchainContracts {
  readonly staking: string;
  readonly election: string | null;
  readonly rewards: string | null;
}

/** A validator of an epoch and its locked stake. */
export interface EpochStake {
  readonly validator: string;
  readonly stake: bigint;
}

/** An epoch as ae_mdw's `EpochInfo` needs it. */
export interface EpochRow {
  readonly epoch: number;
  readonly first: number;
  readonly last: number;
  readonly length: number;
  /** `kh_`-encoded; null when the contract held no seed */
  readonly seed: string | null;
  readonly parentBlockHash: string | null;
  /** the leader of the epoch's last height, or of the top height while the epoch runs (ae_mdw's); null if unknown */
  readonly lastLeader: string | null;
  /** time of key block first - 1, ms; null when that block is not loaded */
  readonly startTimeMs: number | null;
  /** what a pin of this epoch earns */
  readonly pinReward: bigint;
  /** the validators in the staking contract's order */
  readonly validators: readonly EpochStake[];
}

/** A height of the leader schedule and, once its key block is loaded, what the block shows. */
export interface ScheduleRow {
  readonly height: number;
  readonly epoch: number;
  readonly leader: string;
  /** the key block's producer; null while the height is not loaded */
  readonly producer: string | null;
  /** whether the scheduled leader produced nothing (flags HOLE); null while the height is not loaded */
  readonly hole: boolean | null;
  /** whether the key block ends its epoch (flags EOE); null while the height is not loaded */
  readonly eoe: boolean | null;
}

/** Where a walk over an epoch's accounts (validators, a validator's delegates) stands: ae_mdw's key (epoch, account). */
export interface EpochAccountKey {
  readonly epoch: number;
  readonly account: string;
}

/** Which epochs' validators or delegates: of a range of epochs, of one validator (all of its validators without). */
export interface ValidatorFilter {
  readonly epochs: Range;
  readonly validator?: string;
}

/** A validator of an epoch. */
export interface ValidatorRow {
  readonly epoch: number;
  readonly validator: string;
  readonly stake: bigint;
  readonly delegates: number;
  /** block rewards of the heights it produced in the epoch; null until the next epoch's end pays them */
  readonly rewardsEarned: bigint | null;
  /** its pins over all epochs: epoch → reward */
  readonly pinningHistory: ReadonlyMap<number, bigint>;
}

/** A delegate's stake with a validator in an epoch. */
export interface DelegateRow {
  readonly epoch: number;
  readonly delegate: string;
  readonly validator: string;
  readonly stake: bigint;
}

/** hyperchainRecord reads what the populator recorded; undefined before it asked the node. */
export async function hyperchainRecord(db: Queryable): Promise<HyperchainRecord | undefined> {
  const { rows } = await db.query<{ hyperchain: boolean } & HyperchainContracts>(
    'SELECT hyperchain, staking, election, rewards FROM hc_chain',
  );
  const row = rows[0];
  if (!row) return undefined;
  const { hyperchain, staking, election, rewards } = row;
  return { hyperchain, contracts: hyperchain ? { staking, election, rewards } : undefined };
}

/** isHyperchain is true when the populator found the chain to be a hyperchain. */
export async function isHyperchain(db: Queryable): Promise<boolean> {
  return (await hyperchainRecord(db))?.hyperchain === true;
}

/** currentEpoch is the epoch of the top loaded height; undefined before the first epoch is loaded. */
export async function currentEpoch(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ epoch: number }>(
    `SELECT e.epoch FROM hc_epochs e
      WHERE e.first <= (SELECT coalesce(max(height), 0) FROM key_blocks)
      ORDER BY e.epoch DESC LIMIT 1`,
  );
  return rows[0]?.epoch;
}

/** epochHeights is the heights of epochs A..B (an `epoch:A-B` scope as a `gen:` one); undefined when none is known. */
export async function epochHeights(db: Queryable, epochs: Range): Promise<Range | undefined> {
  const { rows } = await db.query<{ first: number | null; last: number | null }>(
    'SELECT min(first) AS first, max(last) AS last FROM hc_epochs WHERE epoch BETWEEN $1 AND $2',
    [epochs.first, epochs.last],
  );
  const { first, last } = rows[0] ?? { first: null, last: null };
  return first === null || last === null ? undefined : { first, last };
}

// stakes as text inside the JSON: exact past 2^53
const EPOCH_SELECT = `SELECT e.epoch, e.first, e.last, e.length, e.seed, e.parent_block_hash AS "parentBlockHash",
         (SELECT s.leader FROM hc_schedule s
           WHERE s.height BETWEEN e.first AND least(e.last, greatest(e.first, (SELECT max(height) FROM key_blocks)))
           ORDER BY s.height DESC LIMIT 1) AS "lastLeader", e.start_time_ms::text AS "startTimeMs", e.pin_reward::text AS "pinReward",
         coalesce((SELECT json_agg(json_build_object('validator', v.validator, 'stake', v.stake::text) ORDER BY v.position)
                     FROM hc_validators v WHERE v.epoch = e.epoch), '[]') AS validators
    FROM hc_epochs e`;

const SCHEDULE_SELECT = `SELECT s.height, s.epoch, s.leader, p.producer, p.hole, p.eoe
    FROM hc_schedule s LEFT JOIN hc_produced p ON p.height = s.height`;

const epochSqlPage = rangePage<EpochSqlRow>({ name: 'mdw_hc_epochs', select: EPOCH_SELECT, key: 'e.epoch' });

/** epochsPage reads up to n epochs of a range walking from an epoch (inclusive). */
export const epochsPage: RangePage<EpochRow> = async (...page) => (await epochSqlPage(...page)).map(epochRow);

/** epochAt reads one epoch; undefined when it is not loaded. */
export async function epochAt(db: Queryable, epoch: number): Promise<EpochRow | undefined> {
  const { rows } = await db.query<EpochSqlRow>(`${EPOCH_SELECT} WHERE e.epoch = $1`, [epoch]);
  return rows[0] && epochRow(rows[0]);
}

/**
 * epochsFixedAt reads the epochs fixed by the key blocks at `heights` (an epoch's row is written with key block first -
 * 1, where the election contract moves to it): the websocket's Epochs channel. Added by i45r.
 */
export async function epochsFixedAt(db: Queryable, heights: readonly number[]): Promise<EpochRow[]> {
  const { rows } = await db.query<EpochSqlRow>(`${EPOCH_SELECT} WHERE e.first - 1 = ANY($1::int[]) ORDER BY e.epoch`, [
    heights,
  ]);
  return rows.map(epochRow);
}

/** schedulePage reads up to n heights of the schedule within a range of heights, walking from a height (inclusive). */
export const schedulePage = rangePage<ScheduleRow>({
  name: 'mdw_hc_schedule',
  select: SCHEDULE_SELECT,
  key: 's.height',
});

/** scheduleAt reads the schedule of one height; undefined when no loaded epoch covers it. */
export async function scheduleAt(db: Queryable, height: number): Promise<ScheduleRow | undefined> {
  const { rows } = await db.query<ScheduleRow>(`${SCHEDULE_SELECT} WHERE s.height = $1`, [height]);
  return rows[0];
}

/** BYTE_ORDER orders ids by the bytes of their text (collation C): the same order, and cursors, on every database. */
const BYTE_ORDER = (column: string): string => `${column} COLLATE "C"`;

const VALIDATOR_SELECT = `SELECT v.epoch, v.validator, v.stake::text AS stake, v.delegates,
         (SELECT r.reward::text FROM hc_rewards r WHERE r.validator = v.validator AND r.epoch = v.epoch) AS "rewardsEarned",
         coalesce((SELECT json_agg(json_build_object('epoch', p.epoch, 'reward', p.reward::text) ORDER BY p.epoch)
                     FROM hc_pins p WHERE p.leader = v.validator), '[]') AS pins
    FROM hc_validators v`;

/**
 * A list of accounts by epoch, walked in ae_mdw's order (epoch, account): its statements' name, its `SELECT … FROM …`,
 * its epoch and account columns, and its condition on the filter's validator (`$4`).
 */
interface EpochAccountList {
  readonly name: string;
  readonly select: string;
  readonly epoch: string;
  readonly account: string;
  readonly ofValidator: string;
}

/**
 * epochAccountPage is the page reader of `list`: its rows of the filter's epochs and validator, one prepared statement
 * per walk and start.
 */
function epochAccountPage<R extends object>(list: EpochAccountList): PageReader<ValidatorFilter, EpochAccountKey, R> {
  return async (db, { epochs, validator }, { walk, from, n }) => {
    const ks = keyset(
      [list.epoch, BYTE_ORDER(list.account)],
      walk,
      from === undefined ? undefined : '$5::int, $6::text',
    );
    const { rows } = await db.query<R>({
      name: `${list.name}_${walk}${from === undefined ? '' : '_from'}`,
      text: `${list.select}
              WHERE ${list.epoch} BETWEEN $2 AND $3 AND ${list.ofValidator} AND ${ks.where}
              ORDER BY ${ks.order} LIMIT $1`,
      values: [n, epochs.first, epochs.last, validator ?? null, ...(from ? [from.epoch, from.account] : [])],
    });
    return rows;
  };
}

const validatorSqlPage = epochAccountPage<ValidatorSqlRow>({
  name: 'mdw_hc_validators',
  select: VALIDATOR_SELECT,
  epoch: 'v.epoch',
  account: 'v.validator',
  ofValidator: '($4::text IS NULL OR v.validator = $4)',
});

/**
 * validatorsPage reads up to n validators of epochs `epochs`, in ae_mdw's order (epoch, validator), walking from a key
 * (inclusive); `validator` narrows it to one validator's epochs.
 */
export const validatorsPage: PageReader<ValidatorFilter, EpochAccountKey, ValidatorRow> = async (...page) =>
  (await validatorSqlPage(...page)).map(validatorRow);

/** validatorAt reads one validator of one epoch; undefined when it was not a validator of that epoch. */
export async function validatorAt(db: Queryable, validator: string, epoch: number): Promise<ValidatorRow | undefined> {
  const { rows } = await db.query<ValidatorSqlRow>(`${VALIDATOR_SELECT} WHERE v.epoch = $1 AND v.validator = $2`, [
    epoch,
    validator,
  ]);
  return rows[0] && validatorRow(rows[0]);
}

/** lastValidatorEpoch is the latest loaded epoch a validator is one of; undefined when it never was. */
export async function lastValidatorEpoch(db: Queryable, validator: string): Promise<number | undefined> {
  const { rows } = await db.query<{ epoch: number }>(
    'SELECT epoch FROM hc_validators WHERE validator = $1 ORDER BY epoch DESC LIMIT 1',
    [validator],
  );
  return rows[0]?.epoch;
}

const delegateSqlPage = epochAccountPage<DelegateSqlRow>({
  name: 'mdw_hc_delegates',
  select: 'SELECT d.validator, d.epoch, d.delegate, d.stake::text AS stake FROM hc_delegates d',
  epoch: 'd.epoch',
  account: 'd.delegate',
  // a validator's delegates only: its primary key's first column
  ofValidator: 'd.validator = $4',
});

/** delegatesPage reads up to n delegates of a validator in epochs `epochs`, by (epoch, delegate), from a key. */
export const delegatesPage: PageReader<Required<ValidatorFilter>, EpochAccountKey, DelegateRow> = async (...page) =>
  (await delegateSqlPage(...page)).map((r) => ({ ...r, stake: BigInt(r.stake) }));

interface EpochSqlRow extends Omit<EpochRow, 'pinReward' | 'validators' | 'startTimeMs'> {
  readonly pinReward: string;
  readonly startTimeMs: string | null;
  readonly validators: { validator: string; stake: string }[];
}

interface ValidatorSqlRow {
  readonly epoch: number;
  readonly validator: string;
  readonly stake: string;
  readonly delegates: number;
  readonly rewardsEarned: string | null;
  readonly pins: { epoch: number; reward: string }[];
}

interface DelegateSqlRow {
  readonly epoch: number;
  readonly delegate: string;
  readonly validator: string;
  readonly stake: string;
}

function epochRow(r: EpochSqlRow): EpochRow {
  return {
    ...r,
    startTimeMs: r.startTimeMs === null ? null : Number(r.startTimeMs),
    pinReward: BigInt(r.pinReward),
    validators: r.validators.map((v) => ({ validator: v.validator, stake: BigInt(v.stake) })),
  };
}

function validatorRow(r: ValidatorSqlRow): ValidatorRow {
  return {
    epoch: r.epoch,
    validator: r.validator,
    stake: BigInt(r.stake),
    delegates: r.delegates,
    rewardsEarned: r.rewardsEarned === null ? null : BigInt(r.rewardsEarned),
    pinningHistory: new Map(r.pins.map((p) => [p.epoch, BigInt(p.reward)])),
  };
}
