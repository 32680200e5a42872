-- The reorg log (issue 61): one row per populator transaction that removed stored blocks the node no longer has (a
-- fork's rollback, a reload with -H that found other blocks), written in that transaction. A reader that sees the new
-- blocks sees their row too, in the same snapshot, whichever server or standby it reads: the websocket tells its
-- subscribers of the fork from it, before the new chain's blocks (src/events/chain-feed.ts). A NOTIFY payload could not
-- do that: it is lost while a server's LISTEN connection is down, arrives before a lagging standby has the rows, and
-- holds 8000 bytes where a deep fork drops more hashes.
-- `seq` is commit order, so a server that has read row n has read every row below it: one writer holds a schema (its
-- writer lock), and a writer takes this table's lock before it numbers its row (src/db/writes/reorgs.ts), so even two
-- would commit their rows in the order of their numbers. The log is no chain data: it keeps the last 1000 rows (a
-- server reads it with every chunk of heights it reads, never that far behind).
CREATE TABLE reorgs (
  seq         bigint PRIMARY KEY,
  -- the lowest height whose blocks were dropped: every block below it stays
  from_height integer NOT NULL,
  -- the key and micro block hashes dropped, in chain order
  dropped     text[] NOT NULL,
  -- the stored top once the transaction committed: its height and its last block (micro block, else key block); null
  -- when nothing is stored
  top_height  integer,
  top_hash    text
);
