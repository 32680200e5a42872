-- A reload's (-H) progress (issue 57): written in the transaction of each batch it loads, so a reload started again
-- with the same list (an operator's Job whose pod restarted, a blue/green reload's populator) goes on after the last
-- batch written instead of from the list's start. One row: a schema has one writer at a time (its writer lock), and a
-- reload of another list starts from its own start and takes the row over. PostgreSQL 11 compatible.
CREATE TABLE reload_progress (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  -- the list reloaded, as runs (`0-5000,5010`)
  heights text NOT NULL,
  -- 'listed': the list itself; 'above': the stored heights above a replaced one (their name and oracle state)
  phase text NOT NULL CHECK (phase IN ('listed', 'above')),
  -- every height of the phase up to here is written
  done_through integer NOT NULL,
  -- the lowest listed height whose stored blocks the node replaced: where the 'above' phase starts
  lowest_replaced integer,
  updated_at timestamptz NOT NULL DEFAULT now()
);
