-- A transaction is stored as the node's binary serialisation of the signed transaction (`signed`, src/chain/stored-tx.ts)
-- instead of the node's JSON (`tx` jsonb, 345 bytes on average on the mainnet-like chain) and its signatures (text[],
-- 121): about 175 bytes. The API renders the JSON from the bytes in TypeScript. What SQL read from inside the JSON it
-- reads from columns the writer extracts: `gas` (a micro block's gas), `inner_type` (the type a GAMetaTx or
-- PayingForTx wraps, for /v3's type filters) and `channel_amount` (a channel transaction's coins, for the channel
-- statistics and /v3's channel sums). A stored database gets them from its rows: 0085 (a TypeScript step of the
-- migrator, src/db/data-steps.ts) fills the columns in batches and 0086 drops the JSON.
-- PostgreSQL 11 compatible.
ALTER TABLE transactions
  ADD COLUMN signed bytea,
  ADD COLUMN gas numeric,
  ADD COLUMN inner_type text,
  ADD COLUMN channel_amount numeric,
  ALTER COLUMN tx DROP NOT NULL;
