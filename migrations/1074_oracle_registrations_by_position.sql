-- The registrations in the chain's order (/middleware/oracles/list, newest first, a page of limit and offset, issue 57):
-- with no index of them in that order a page read every registration and joined each to its transaction before the
-- sort (the whole list on our scale chains, where it fits a page), or walked every oracle event from the top, the
-- extensions too (114 blocks for a page of 10 at 1 % of mainnet, the extensions ten times more at ten times the chain),
-- until the page's registrations were found. A partial index holds only the registrations: a page walks offset + limit
-- of them and nothing else. Built in the migration's transaction (oracle_events is small: its registrations and
-- extensions, not the queries), as 1068's index is, for the same reason.
CREATE INDEX oracle_events_registrations_by_position ON oracle_events (height, micro_index, tx_index)
  WHERE kind = 'register';
