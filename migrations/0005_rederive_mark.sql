-- rederive_from marks where the stored heights stop deriving from the whole chain below them: a
-- batch that added name or oracle events below stored heights (the gaps of a sparse database
-- that -H loaded) sets it to the height above the batch. The populator reloads every stored height
-- from the mark up in chain order and moves the mark with each batch, in the batch's transaction,
-- so a restart goes on where the last commit left it. Null: every height derives in order.
-- PostgreSQL 11 compatible.

ALTER TABLE sync_state ADD COLUMN rederive_from integer;
