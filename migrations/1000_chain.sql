-- 0.1.0 baseline: the chain as the node serves it. Every row that belongs to a height carries it and goes with its
-- key block (1005_height_cascade). Node objects are kept in jsonb (exact numerics) so answers equal the node's digit
-- for digit; the columns beside them exist for queries. Compact forms: a transaction is the node's binary
-- serialisation of the signed transaction (src/chain/stored-tx.ts) with the columns SQL reads extracted by the
-- writer; a micro block's header and a call's info leave out what the row's own columns hold (the queries put it
-- back); account_transactions names ids by number (account_ids).
-- PostgreSQL 11 compatible, like every migration.

-- One row: how far the populator got, and the node's height it last saw.
CREATE TABLE sync_state (
  id            boolean DEFAULT true NOT NULL CHECK (id),
  top_height    integer,
  top_hash      text,
  node_height   integer,
  heartbeat_at  timestamptz,
  -- set while a -H reload or a catch-up is running
  status        text DEFAULT 'idle' NOT NULL,
  last_error    text,
  -- the populator reloads the stored heights from here up in order (a batch added name or oracle
  -- events below them: a sparse database's gaps)
  rederive_from integer,
  PRIMARY KEY (id)
);
INSERT INTO sync_state (id) VALUES (true);

CREATE TABLE key_blocks (
  height        integer NOT NULL,
  hash          text NOT NULL,
  prev_hash     text NOT NULL,
  prev_key_hash text NOT NULL,
  beneficiary   text NOT NULL,
  miner         text NOT NULL,
  time_ms       bigint NOT NULL,
  -- the node's KeyBlock object
  data          jsonb NOT NULL,
  PRIMARY KEY (height),
  UNIQUE (hash)
);
CREATE INDEX key_blocks_time_ms ON key_blocks (time_ms);

CREATE TABLE micro_blocks (
  hash        text NOT NULL,
  height      integer NOT NULL,
  -- position of the micro block in its generation, from 0
  micro_index integer NOT NULL,
  time_ms     bigint NOT NULL,
  tx_count    integer NOT NULL,
  -- the node's MicroBlockHeader without what the row and the chain hold (the queries put it back)
  header      jsonb NOT NULL,
  UNIQUE (height, micro_index)
);
CREATE INDEX micro_blocks_hash ON micro_blocks USING hash (hash);
CREATE INDEX micro_blocks_time_ms ON micro_blocks (time_ms, height, micro_index);

CREATE TABLE transactions (
  hash           text NOT NULL,
  height         integer NOT NULL,
  micro_index    integer NOT NULL,
  -- position of the transaction in its micro block, from 0
  tx_index       integer NOT NULL,
  micro_time_ms  bigint NOT NULL,
  -- the outer transaction's type (GAMetaTx and PayingForTx keep their own): the node's object tag of
  -- it (src/chain/id-key.ts txTypeCode; tx_type_name gives the name)
  tx_type        smallint NOT NULL,
  fee            numeric NOT NULL,
  -- byte size of the signed transaction
  size           integer NOT NULL,
  -- the node's binary serialisation of the signed transaction (src/chain/stored-tx.ts); SQL reads the
  -- columns below, which the writer extracts: a micro block's gas, the type a GAMetaTx or PayingForTx
  -- wraps, a channel transaction's coins
  signed         bytea NOT NULL,
  gas            numeric,
  inner_type     text,
  channel_amount numeric,
  UNIQUE (height, micro_index, tx_index)
);
CREATE INDEX transactions_hash ON transactions USING hash (hash);
CREATE INDEX transactions_type ON transactions (tx_type, height, micro_index, tx_index);

-- The node's name of a stored transaction type code (src/chain/id-key.ts txTypeCode lists the same pairs). Not
-- STRICT: PostgreSQL inlines a STRICT SQL function only when its body is provably strict, which a CASE is not.
CREATE FUNCTION tx_type_name(code smallint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE code
    WHEN 12 THEN 'SpendTx' WHEN 22 THEN 'OracleRegisterTx' WHEN 25 THEN 'OracleExtendTx' WHEN 23 THEN 'OracleQueryTx'
    WHEN 24 THEN 'OracleRespondTx' WHEN 33 THEN 'NamePreclaimTx' WHEN 32 THEN 'NameClaimTx' WHEN 34 THEN 'NameUpdateTx'
    WHEN 36 THEN 'NameTransferTx' WHEN 35 THEN 'NameRevokeTx' WHEN 42 THEN 'ContractCreateTx'
    WHEN 43 THEN 'ContractCallTx' WHEN 50 THEN 'ChannelCreateTx' WHEN 53 THEN 'ChannelCloseMutualTx'
    WHEN 51 THEN 'ChannelDepositTx' WHEN 52 THEN 'ChannelWithdrawTx' WHEN 54 THEN 'ChannelCloseSoloTx'
    WHEN 55 THEN 'ChannelSlashTx' WHEN 56 THEN 'ChannelSettleTx' WHEN 59 THEN 'ChannelSnapshotSoloTx'
    WHEN 57 THEN 'ChannelOffChainTx' WHEN 521 THEN 'ChannelForceProgressTx' WHEN 80 THEN 'GAAttachTx'
    WHEN 81 THEN 'GAMetaTx' WHEN 82 THEN 'PayingForTx' END
$$;

-- An id's number: 8 × nextval(account_ids_seq) + the key's tag (its first byte, 1-7, src/chain/id-key.ts), so a
-- query that wants accounts only tests `num & 7` without reading account_ids; 2^28 numbers for ids.
CREATE SEQUENCE account_ids_seq AS integer MAXVALUE 268435455;
CREATE TABLE account_ids (
  -- 8 × nextval(account_ids_seq) + the key's tag
  num integer NOT NULL,
  -- the id's tag and 32 bytes (src/chain/id-key.ts idKey)
  key bytea NOT NULL,
  PRIMARY KEY (num),
  UNIQUE (key)
);

-- Every transaction once per id it names (by number), with the fields it appears in, space-separated.
CREATE TABLE account_transactions (
  -- the id's number (account_ids)
  account     integer NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  -- the outer transaction's type: the node's object tag of it (src/chain/id-key.ts txTypeCode)
  tx_type     smallint NOT NULL,
  -- the fields the id appears in, space-separated, e.g. sender_id or tx.recipient_id pointers
  fields      text NOT NULL,
  PRIMARY KEY (account, height, micro_index, tx_index)
);
CREATE INDEX account_transactions_height ON account_transactions (height);
CREATE INDEX account_transactions_type ON account_transactions (account, tx_type, height, micro_index, tx_index);

CREATE TABLE contracts (
  contract_id    text NOT NULL,
  height         integer NOT NULL,
  create_tx_hash text NOT NULL,
  owner_id       text NOT NULL,
  -- as the node printed them (integers, or hex strings in old eras)
  vm_version     text NOT NULL,
  abi_version    text NOT NULL,
  PRIMARY KEY (contract_id)
);
CREATE INDEX contracts_height ON contracts (height);

CREATE TABLE contract_calls (
  tx_hash           text NOT NULL,
  height            integer NOT NULL,
  micro_index       integer NOT NULL,
  tx_index          integer NOT NULL,
  contract_id       text NOT NULL,
  caller_id         text NOT NULL,
  function          text,
  arguments         jsonb,
  -- the node's call info (return_type, return_value, gas_used, log) when fetched; without caller_id,
  -- contract_id and height when call_info_trimmed (the queries put them back)
  call_info         jsonb,
  -- the decoded return value
  result            jsonb,
  -- why decoding failed; the call is stored all the same
  decode_error      text,
  -- every node had pruned the call info: the call is stored without it
  call_info_pruned  boolean DEFAULT false NOT NULL,
  call_info_trimmed boolean DEFAULT false NOT NULL
);
CREATE INDEX contract_calls_caller ON contract_calls (caller_id, height, micro_index, tx_index);
CREATE INDEX contract_calls_contract ON contract_calls (contract_id, height, micro_index, tx_index);
CREATE INDEX contract_calls_position ON contract_calls (height, micro_index, tx_index);
CREATE INDEX contract_calls_pruned ON contract_calls (height) WHERE call_info_pruned;
CREATE INDEX contract_calls_tx_hash ON contract_calls USING hash (tx_hash);

CREATE TABLE channel_events (
  channel_id  text NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text NOT NULL,
  tx_type     text NOT NULL,
  -- true for the transactions that end a channel (close mutual, settle)
  closes      boolean NOT NULL,
  PRIMARY KEY (channel_id, height, micro_index, tx_index)
);
CREATE INDEX channel_events_height ON channel_events (height);

CREATE TABLE name_events (
  name_hash   text NOT NULL,
  -- plain name (known from the claim; null on events before a claim was seen)
  name        text,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text NOT NULL,
  -- claim, bid (a claim into a running auction), update, transfer, revoke
  kind        text NOT NULL,
  -- owner after this event
  owner       text NOT NULL,
  -- height at which the name expires after this event; while in auction, the auction end plus the
  -- claim lifetime (the expiry if the current bid wins); null when unknown (claim not stored)
  expires_at  integer,
  -- height at which its auction ends, for claims that open or extend an auction
  auction_end integer,
  name_fee    numeric,
  -- pointers after this event [{key, id}]
  pointers    jsonb DEFAULT '[]' NOT NULL,
  PRIMARY KEY (name_hash, height, micro_index, tx_index)
);
CREATE INDEX name_events_auction_end ON name_events (auction_end) WHERE (auction_end IS NOT NULL);
CREATE INDEX name_events_bids_by_owner ON name_events (owner, height DESC, micro_index DESC, tx_index DESC) WHERE ((kind = ANY (ARRAY['claim'::text, 'bid'::text])) AND (auction_end IS NOT NULL));
CREATE INDEX name_events_expires_at ON name_events (expires_at);
CREATE INDEX name_events_height ON name_events (height);
CREATE INDEX name_events_name ON name_events (name);

CREATE TABLE name_pointers (
  name_hash   text NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  key         text NOT NULL,
  id          text NOT NULL,
  PRIMARY KEY (name_hash, height, micro_index, tx_index, key)
);
CREATE INDEX name_pointers_height ON name_pointers (height);
CREATE INDEX name_pointers_id ON name_pointers (id);

CREATE TABLE oracle_events (
  oracle_id       text NOT NULL,
  height          integer NOT NULL,
  micro_index     integer NOT NULL,
  tx_index        integer NOT NULL,
  tx_hash         text NOT NULL,
  -- register or extend
  kind            text NOT NULL,
  -- expiry height after this event
  expires_at      integer NOT NULL,
  -- registration fields (null on extend)
  query_fee       numeric,
  query_format    text,
  response_format text,
  abi_version     text,
  PRIMARY KEY (oracle_id, height, micro_index, tx_index)
);
CREATE INDEX oracle_events_expires_at ON oracle_events (expires_at);
CREATE INDEX oracle_events_height ON oracle_events (height);

CREATE TABLE oracle_queries (
  query_id     text NOT NULL,
  oracle_id    text NOT NULL,
  height       integer NOT NULL,
  micro_index  integer NOT NULL,
  tx_index     integer NOT NULL,
  tx_hash      text NOT NULL,
  sender_id    text NOT NULL,
  sender_nonce numeric NOT NULL,
  -- the query as the OracleQueryTx carried it
  query        text NOT NULL,
  fee          numeric NOT NULL,
  expires_at   integer NOT NULL,
  response_ttl jsonb NOT NULL,
  PRIMARY KEY (query_id)
);
CREATE INDEX oracle_queries_expires_at ON oracle_queries (expires_at);
CREATE INDEX oracle_queries_height ON oracle_queries (height);
CREATE INDEX oracle_queries_oracle ON oracle_queries (oracle_id, height, micro_index, tx_index);

CREATE TABLE oracle_responses (
  query_id    text NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text NOT NULL,
  response    text NOT NULL,
  PRIMARY KEY (query_id)
);
CREATE INDEX oracle_responses_height ON oracle_responses (height);

