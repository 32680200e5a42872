/**
 * @module The batch a test's `-v --full` loads its scratch schema in. The harnesses load their chains in batches of 10
 * heights, for the populator's batch boundaries to fall inside the chain; a full verify loaded its scratch schema the
 * same way, paying each batch's reads, derivations and commit ten times per 100 heights (a full verify of 84 heights:
 * 2.4 CPU-s, the process's and PostgreSQL's, against 1.7 in batches of 100; three runs each). In batches of 100 its
 * rows still come from a load of its own, whose boundaries differ from the verified load's: a derived row that depends
 * on where a batch ends differs between the two, and the comparison finds it.
 */
export const FULL_VERIFY_BATCH: Readonly<Record<string, string>> = { BATCH_SIZE: '100' };
