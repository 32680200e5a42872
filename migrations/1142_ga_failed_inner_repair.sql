-- Issue 88: a GAMetaTx whose inner transaction failed takes no effect (node 7.2.2 undoes it), but a populator before
-- this release wrote the inner transaction's rows as if it had: a contract call, a name claim, update, transfer or
-- revoke, an oracle, a channel event, a contract, AEX-N events, the listing under the inner transaction's ids. And
-- the name, oracle and channel rows of later heights (and the listing of a spend or call sent to such a name) were
-- derived from that phantom state. The populator repairs such a schema at its start, before it follows the head
-- (src/indexer/sync/ga-repair.ts): it reloads the heights holding one, and the later heights holding an event of a
-- name, oracle or channel one of them named or a transaction sent to such a name, as `mdw -H` does, then forgets them. A height's `stage`: `seed`, a height holding a stored GAMetaTx whose inner
-- transaction failed (ga_calls says `error`) or may have (no stored outcome tells: the `ga` area still to derive
-- there or the node no longer holding its info then, a PayingForTx paying for one, a GAMetaTx wrapping another; the
-- start asks the node its info); `reload`, a
-- height of the list the start made from them, reloaded in order. /mdw/v3/status answers what is left
-- (mdw_pending_repairs). A schema with no such transaction gets no row.
CREATE TABLE repair_heights (
  repair text NOT NULL,
  height integer NOT NULL,
  stage  text NOT NULL CHECK (stage IN ('seed', 'reload')),
  since  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (repair, height)
);

-- by transactions_type (tx_type, height, …): the GAMetaTx (81) and the PayingForTx (82), few on any chain. A GAMetaTx
-- without a stored `ok` may have failed: no row (the area behind, or the node no longer held its info when it
-- derived the height) or no return type tells nothing, and the start asks the node
INSERT INTO repair_heights (repair, height, stage)
SELECT DISTINCT 'ga_failed_inner', t.height, 'seed'
  FROM transactions t
  LEFT JOIN ga_calls g ON (g.height, g.micro_index, g.tx_index) = (t.height, t.micro_index, t.tx_index)
 WHERE t.tx_type IN (81, 82)
   AND ((t.tx_type = 81 AND (g.return_type IS DISTINCT FROM 'ok' OR t.inner_type IN ('GAMetaTx', 'PayingForTx')))
        OR (t.tx_type = 82 AND t.inner_type = 'GAMetaTx'));
