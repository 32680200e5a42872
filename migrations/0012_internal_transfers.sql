-- ae_mdw's internal transfers (/v3/transfers, InternalTransferEvent activities) as a table the
-- populator fills with each batch, replacing the v3_transfers view (0011), which could not hold
-- what needs the node's rules: block and dev rewards, genesis accounts, expired-query refunds.
-- Rows carry their height, so a fork or a reload deleting heights deletes them too.
-- Key-block-level transfers (rewards, genesis accounts, auction ends, query expiries) sit at
-- micro_index = tx_index = -1; ref_tx_hash is '' where no transaction caused the transfer.
-- The order of /v3/transfers is the primary key's, ae_mdw's {height, txi, kind, target, ref}.
-- PostgreSQL 11 compatible.

CREATE TABLE internal_transfers (
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  kind        text    NOT NULL,
  account_id  text    NOT NULL,
  ref_tx_hash text    NOT NULL DEFAULT '',
  amount      numeric NOT NULL,
  PRIMARY KEY (height, micro_index, tx_index, kind, account_id, ref_tx_hash)
);
CREATE INDEX internal_transfers_account
  ON internal_transfers (account_id, height, micro_index, tx_index, kind, ref_tx_hash);

-- The fees and gas a generation's transactions paid, per batch that wrote part of it (a
-- generation continued by a later poll gets a second row): the node pays them out with the
-- rewards 180 generations later, so they are kept rather than summed from jsonb again.
CREATE TABLE generation_fees (
  height     integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  from_micro integer NOT NULL,
  fees       numeric NOT NULL,
  PRIMARY KEY (height, from_micro)
);

-- the derivations of a batch find auctions ending and queries expiring at its heights
CREATE INDEX name_events_auction_end ON name_events (auction_end) WHERE auction_end IS NOT NULL;
CREATE INDEX oracle_queries_expires_at ON oracle_queries (expires_at);

-- what the view derived from the rows already stored; rewards and genesis accounts of stored
-- heights need the populator's rules (a reload, `mdw -H`, writes them)
INSERT INTO internal_transfers (height, micro_index, tx_index, kind, account_id, ref_tx_hash, amount)
SELECT height, micro_index, tx_index, kind, account_id, ref_tx_hash, amount FROM v3_transfers
ON CONFLICT DO NOTHING;

DROP VIEW v3_transfers;
