-- A data step: the migrator (src/db/migrator.ts) runs the TypeScript step of this name (src/db/data-steps.ts
-- fillSignedTransactions) after this file, in batches that commit one by one, under the migration lock: every
-- transaction stored as JSON gets its binary form and the columns 0084 added, from the serialiser the writer uses.
-- A kill mid-way goes on where it stopped (the rows still without `signed`).
SELECT 1;
