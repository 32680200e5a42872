-- The æternity DEX as ae_mdw indexes it (dex-contracts-v2): pairs announced by a factory's PairCreated
-- event and swaps reported by a pair's SwapTokens event, read from the stored calls' logs by the
-- populator in the batch of their heights. Every row carries its height and goes with it (fork
-- rollback, -H reload): nothing here is derived from another row, so nothing needs refreshing.
-- Which factory counts (DEX_FACTORY) and which token is wrapped AE (DEX_WRAPPED_AE) are read when
-- answering, so a change of either needs no reindexing. No uniqueness is asked of the chain: any
-- contract can emit these events, and a strange one must never stop the sync.
-- PostgreSQL 11 compatible.

CREATE TABLE dex_pairs (
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text    NOT NULL,
  log_idx     integer NOT NULL,
  -- the emitter of PairCreated
  factory_id  text    NOT NULL,
  pair_id     text    NOT NULL,
  -- the pair's tokens, sorted as the factory sorts them (token0 < token1 by address bytes)
  token0_id   text    NOT NULL,
  token1_id   text    NOT NULL
);
CREATE INDEX dex_pairs_pair ON dex_pairs (pair_id, factory_id);
CREATE INDEX dex_pairs_token0 ON dex_pairs (token0_id, factory_id);
CREATE INDEX dex_pairs_token1 ON dex_pairs (token1_id, factory_id);
CREATE INDEX dex_pairs_height ON dex_pairs (height);

CREATE TABLE dex_swaps (
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text    NOT NULL,
  log_idx     integer NOT NULL,
  -- the emitter of SwapTokens (a pair, when a factory announced it)
  pair_id     text    NOT NULL,
  -- the contract the transaction called (the router, or the pair itself)
  contract_id text    NOT NULL,
  caller_id   text    NOT NULL,
  to_id       text    NOT NULL,
  amount0_in  numeric NOT NULL,
  amount1_in  numeric NOT NULL,
  amount0_out numeric NOT NULL,
  amount1_out numeric NOT NULL
);
CREATE INDEX dex_swaps_position ON dex_swaps (height, micro_index, tx_index, log_idx);
CREATE INDEX dex_swaps_pair ON dex_swaps (pair_id, height, micro_index, tx_index, log_idx);
CREATE INDEX dex_swaps_caller ON dex_swaps (caller_id, height, micro_index, tx_index, log_idx);
