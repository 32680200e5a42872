/**
 * @module The migration history's rules, pure: 0.1.0 squashed the 46 files written before the release into a
 * baseline, so a schema that applied those files up to the last one is moved onto the baseline (the files whose
 * schema it has are recorded as applied, not run; ONTO_BASELINE drops its own height cascade, which the baseline's
 * shared one replaces), one that stopped earlier is refused, and a pending file named below the newest applied one
 * is refused (the migrator applies files in name order, so such a file would run in a different order on an old
 * schema than on a fresh one).
 */
import { AppError, ErrorCode } from '../../base/errors.ts';

/** The files of 0.1.0's baseline, whose schema equals what the files before the release left. */
export const BASELINE: readonly string[] = [
  '1000_chain',
  '1001_names',
  '1002_tokens',
  '1003_derived',
  '1004_stats',
  '1005_height_cascade',
  '1006_function_search_path',
];

/** The baseline's files whose schema a schema at 0100 has already: recorded as applied when it is moved. */
export const AT_0100: readonly string[] = BASELINE.slice(0, 5);

/** The file (in the migrations' directory) that a schema at 0100 runs first when it is moved onto the baseline. */
export const ONTO_BASELINE = 'onto-baseline-from-0100.sql';

/** The files a schema applied before 0.1.0 (kept in test/fixtures/migrations-0.0/ to prove the baseline equal). */
export const BEFORE_BASELINE: readonly string[] = [
  '0001_chain',
  '0002_name_state',
  '0003_statement_cascade',
  '0004_name_state_by_index',
  '0005_rederive_mark',
  '0006_transactions_by_position',
  '0010_v3_micro_block_time',
  '0011_v3_transfers',
  '0012_internal_transfers',
  '0013_contract_calls_position',
  '0014_generation_txis',
  '0015_contract_remote_calls',
  '0019_generation_fees_per_height',
  '0030_call_info_pruned',
  '0031_account_transactions_without_hash',
  '0032_account_transactions_binary',
  '0033_transactions_hash_index',
  '0034_block_and_call_hash_indexes',
  '0035_account_transactions_fields_text',
  '0040_auction_indexes',
  '0050_aexn_contracts',
  '0051_aex9_balances',
  '0052_aexn_sort_indexes',
  '0053_aex9_trigger_direct',
  '0058_aex9_balances_account_order',
  '0060_dex',
  '0061_aex141',
  '0062_aex141_counts',
  '0063_aex141_transfers_position',
  '0070_stats',
  '0071_stats_miner_rewards',
  '0080_derive_backfill',
  '0081_derive_backfill_failures',
  '0082_derive_backfill_tokens',
  '0083_derived_statement_cascade',
  '0084_transactions_signed',
  '0085_transactions_signed_fill',
  '0086_transactions_drop_json',
  '0087_transactions_without_block_hash',
  '0090_stats_accounts_empty_statements',
  '0095_account_numbers',
  '0096_contract_call_info_trimmed',
  '0097_micro_block_header_trimmed',
  '0098_micro_block_header_prev_hashes',
  '0099_name_fees_rebooked',
  '0100_stats_series_counted_intervals',
];

function refused(message: string): AppError {
  return new AppError(ErrorCode.DB_MIGRATION_REFUSED, 500, message);
}

/**
 * movesOntoBaseline says whether a schema whose log lists `applied` is to be moved onto the baseline before
 * migrating with `files` (the names of the migration files, sorted): yes when it applied every file written before
 * the release and `files` hold the baseline. It throws for a schema that applied only some of them.
 */
export function movesOntoBaseline(schema: string, applied: readonly string[], files: readonly string[]): boolean {
  const old = new Set(BEFORE_BASELINE);
  const oldApplied = applied.filter((name) => old.has(name));
  if (oldApplied.length === 0 || !BASELINE.every((name) => files.includes(name))) return false;
  if (oldApplied.length === BEFORE_BASELINE.length) return true;
  throw refused(
    `schema "${schema}" was migrated by a development version from before 0.1.0 and stopped at ` +
      `${oldApplied[oldApplied.length - 1]}; 0.1.0 moves only a schema that applied every file up to ` +
      `${BEFORE_BASELINE[BEFORE_BASELINE.length - 1]}. Load the chain into a new schema (a new DATABASE_SCHEMA, ` +
      'or a BlueGreen reload under the operator), then drop this one',
  );
}

/**
 * checkKnown throws when the schema applied a migration that is not among `files` (the binary's): a newer version
 * migrated it, and this one would read and write tables it was not written for. Files from before the baseline are
 * known (movesOntoBaseline handles them).
 */
export function checkKnown(schema: string, applied: readonly string[], files: readonly string[]): void {
  const known = new Set([...files, ...BEFORE_BASELINE]);
  const unknown = applied.filter((name) => !known.has(name)).sort();
  if (unknown.length === 0) return;
  throw new AppError(
    ErrorCode.DB_SCHEMA_NEWER,
    409,
    `schema "${schema}" is at migration ${unknown.at(-1)}, newer than this binary, whose newest is ` +
      `${[...files].sort().at(-1) ?? 'none'}: a newer version of mdw migrated it and this one cannot use it. Run that ` +
      'version or a newer one again (spec.image), or roll back to a schema this version wrote ' +
      '(docs/operations.md, "Upgrades and rollbacks")',
  );
}

/**
 * checkOrder throws when a pending file is named below the newest file the schema applied: the migrator applies
 * pending files in name order, so that file would run after the newer ones here and before them on a fresh schema.
 */
export function checkOrder(schema: string, applied: readonly string[], pending: readonly string[]): void {
  const newest = [...applied].sort().at(-1);
  const below = newest === undefined ? undefined : pending.find((name) => name < newest);
  if (below !== undefined)
    throw refused(
      `migration ${below} is pending in schema "${schema}" but named below ${newest}, which it has applied: ` +
        `a schema migrated before ${below} existed would apply it after ${newest}, a fresh one before. ` +
        `Rename it to sort after ${newest}`,
    );
}
