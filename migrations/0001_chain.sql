-- The chain as the node serves it. Every row that belongs to a height references key_blocks(height)
-- ON DELETE CASCADE, so `DELETE FROM key_blocks WHERE height >= h` undoes a fork or clears heights
-- for a reload exactly. Node objects are kept whole in jsonb (exact numerics) so cached answers
-- equal the node's digit for digit; the columns beside them exist for queries.
-- PostgreSQL 11.2 compatible: no generated columns, no features newer than 11.

CREATE TABLE key_blocks (
  height        integer PRIMARY KEY,
  hash          text    NOT NULL UNIQUE,
  prev_hash     text    NOT NULL,
  prev_key_hash text    NOT NULL,
  beneficiary   text    NOT NULL,
  miner         text    NOT NULL,
  time_ms       bigint  NOT NULL,
  -- the node's KeyBlock object
  data          jsonb   NOT NULL
);
CREATE INDEX key_blocks_time_ms ON key_blocks (time_ms);

CREATE TABLE micro_blocks (
  hash        text    PRIMARY KEY,
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  -- position of the micro block in its generation, from 0
  micro_index integer NOT NULL,
  time_ms     bigint  NOT NULL,
  tx_count    integer NOT NULL,
  -- the node's MicroBlockHeader object
  header      jsonb   NOT NULL,
  UNIQUE (height, micro_index)
);

CREATE TABLE transactions (
  hash             text    PRIMARY KEY,
  height           integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_block_hash text    NOT NULL,
  micro_index      integer NOT NULL,
  -- position of the transaction in its micro block, from 0
  tx_index         integer NOT NULL,
  micro_time_ms    bigint  NOT NULL,
  -- tx.type of the outer transaction (GAMetaTx and PayingForTx keep their own type)
  tx_type          text    NOT NULL,
  fee              numeric NOT NULL,
  -- absent (null) for GAMetaTx, which the node prints without signatures
  signatures       text[],
  -- byte size of the signed transaction
  size             integer NOT NULL,
  -- the node's GenericSignedTx.tx object
  tx               jsonb   NOT NULL,
  UNIQUE (height, micro_index, tx_index)
);
CREATE INDEX transactions_micro_block ON transactions (micro_block_hash, tx_index);
CREATE INDEX transactions_type ON transactions (tx_type, height, micro_index, tx_index);

-- One row per (id, transaction) for every id a transaction references in any field, inner
-- transactions of GAMetaTx and PayingForTx included, plus ids it creates (contract, oracle,
-- channel, oracle query, name hash). The aggregate queries read this table, never jsonb.
CREATE TABLE account_transactions (
  account     text    NOT NULL,
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text    NOT NULL,
  tx_type     text    NOT NULL,
  -- the fields the id appears in, e.g. {sender_id} or {tx.recipient_id}
  fields      text[]  NOT NULL,
  PRIMARY KEY (account, height, micro_index, tx_index)
);
CREATE INDEX account_transactions_type ON account_transactions (account, tx_type, height, micro_index, tx_index);
CREATE INDEX account_transactions_height ON account_transactions (height);

CREATE TABLE contracts (
  contract_id    text    PRIMARY KEY,
  height         integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  create_tx_hash text    NOT NULL,
  owner_id       text    NOT NULL,
  -- as the node printed them (integers, or hex strings in old eras)
  vm_version     text    NOT NULL,
  abi_version    text    NOT NULL
);
CREATE INDEX contracts_height ON contracts (height);

-- Calls (ContractCallTx) and constructor runs (ContractCreateTx, function 'init'), decoded.
CREATE TABLE contract_calls (
  tx_hash      text    PRIMARY KEY,
  height       integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index  integer NOT NULL,
  tx_index     integer NOT NULL,
  contract_id  text    NOT NULL,
  caller_id    text    NOT NULL,
  function     text,
  arguments    jsonb,
  -- the node's call info (return_type, return_value, gas_used, log) when fetched
  call_info    jsonb,
  -- the decoded return value
  result       jsonb,
  -- why decoding failed; the call is stored all the same
  decode_error text
);
CREATE INDEX contract_calls_contract ON contract_calls (contract_id, height, micro_index, tx_index);
CREATE INDEX contract_calls_height ON contract_calls (height);

-- Channel life: one row per channel transaction; a channel is active while it has no closing event.
CREATE TABLE channel_events (
  channel_id  text    NOT NULL,
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text    NOT NULL,
  tx_type     text    NOT NULL,
  -- true for the transactions that end a channel (close mutual, settle)
  closes      boolean NOT NULL,
  PRIMARY KEY (channel_id, height, micro_index, tx_index)
);
CREATE INDEX channel_events_height ON channel_events (height);

-- Names as events per height: the state of a name is its latest event, so a fork or a reload
-- that deletes heights rolls the state back exactly.
CREATE TABLE name_events (
  name_hash   text    NOT NULL,
  -- plain name (known from the claim; null on events before a claim was seen)
  name        text,
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text    NOT NULL,
  -- claim, bid (a claim into a running auction), update, transfer, revoke
  kind        text    NOT NULL,
  -- owner after this event
  owner       text    NOT NULL,
  -- height at which the name expires after this event; while in auction, the auction end plus the
  -- claim lifetime (the expiry if the current bid wins); null when unknown (claim not stored)
  expires_at  integer,
  -- height at which its auction ends, for claims that open or extend an auction
  auction_end integer,
  name_fee    numeric,
  -- pointers after this event [{key, id}]
  pointers    jsonb   NOT NULL DEFAULT '[]',
  PRIMARY KEY (name_hash, height, micro_index, tx_index)
);
CREATE INDEX name_events_name ON name_events (name);
CREATE INDEX name_events_height ON name_events (height);

-- Pointers of each update event, for the reverse lookup (names pointing at an account).
CREATE TABLE name_pointers (
  name_hash   text    NOT NULL,
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  key         text    NOT NULL,
  id          text    NOT NULL,
  PRIMARY KEY (name_hash, height, micro_index, tx_index, key)
);
CREATE INDEX name_pointers_id ON name_pointers (id);
CREATE INDEX name_pointers_height ON name_pointers (height);

-- Oracles: registration and every extension, so expiry rolls back with the heights.
CREATE TABLE oracle_events (
  oracle_id       text    NOT NULL,
  height          integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index     integer NOT NULL,
  tx_index        integer NOT NULL,
  tx_hash         text    NOT NULL,
  -- register or extend
  kind            text    NOT NULL,
  -- expiry height after this event
  expires_at      integer NOT NULL,
  -- registration fields (null on extend)
  query_fee       numeric,
  query_format    text,
  response_format text,
  abi_version     text,
  PRIMARY KEY (oracle_id, height, micro_index, tx_index)
);
CREATE INDEX oracle_events_height ON oracle_events (height);

CREATE TABLE oracle_queries (
  query_id     text    PRIMARY KEY,
  oracle_id    text    NOT NULL,
  height       integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index  integer NOT NULL,
  tx_index     integer NOT NULL,
  tx_hash      text    NOT NULL,
  sender_id    text    NOT NULL,
  sender_nonce numeric NOT NULL,
  -- the query as the OracleQueryTx carried it
  query        text    NOT NULL,
  fee          numeric NOT NULL,
  expires_at   integer NOT NULL,
  response_ttl jsonb   NOT NULL
);
CREATE INDEX oracle_queries_oracle ON oracle_queries (oracle_id, height, micro_index, tx_index);
CREATE INDEX oracle_queries_height ON oracle_queries (height);

CREATE TABLE oracle_responses (
  query_id    text    PRIMARY KEY,
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text    NOT NULL,
  response    text    NOT NULL
);
CREATE INDEX oracle_responses_height ON oracle_responses (height);

-- One row: what the populator has loaded and when it was last alive.
CREATE TABLE sync_state (
  id            boolean PRIMARY KEY DEFAULT true CHECK (id),
  top_height    integer,
  top_hash      text,
  node_height   integer,
  heartbeat_at  timestamptz,
  -- set while a -H reload or a catch-up is running
  status        text    NOT NULL DEFAULT 'idle',
  last_error    text
);
INSERT INTO sync_state (id) VALUES (true);
