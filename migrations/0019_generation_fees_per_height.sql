-- One row of fees per generation: a batch that continues a generation (micro blocks added to the top)
-- adds its fees to the generation's row instead of writing a row of its own, so the table no longer
-- depends on how the populator split its work, and `mdw -v --full` finds it equal to a re-derivation.
-- Heights are only ever deleted whole (from key_blocks), so a sum per height loses nothing.
-- PostgreSQL 11 compatible.
CREATE TEMPORARY TABLE generation_fees_summed AS SELECT height, sum(fees) AS fees FROM generation_fees GROUP BY height;
TRUNCATE generation_fees;
ALTER TABLE generation_fees DROP CONSTRAINT generation_fees_pkey, DROP COLUMN from_micro, ADD PRIMARY KEY (height);
INSERT INTO generation_fees (height, fees) SELECT height, fees FROM generation_fees_summed;
DROP TABLE generation_fees_summed;
