-- Each collection's token and owner counts (Aex141Response's nfts_amount and nft_owners), kept as aex141_tokens
-- changes instead of counted per answer: a page of collections then reads one row each, however many tokens
-- they hold. aex141_owner_counts holds each owner's number of tokens in a collection (rows only above zero);
-- statement triggers on aex141_tokens apply every statement's inserted and deleted tokens to both tables, in
-- the same transaction, so every path that changes tokens (a batch, a fork rollback, a -H reload) keeps them
-- exact. PostgreSQL 11 compatible.

CREATE TABLE aex141_owner_counts (
  contract_id text    NOT NULL,
  owner_id    text    NOT NULL,
  tokens      integer NOT NULL,
  PRIMARY KEY (contract_id, owner_id)
);

CREATE TABLE aex141_collection_counts (
  contract_id text    PRIMARY KEY,
  nfts_amount integer NOT NULL,
  nft_owners  integer NOT NULL
);

-- deltas: one row per token added (+1) or removed (-1), by (contract, owner)
CREATE FUNCTION aex141_counts_apply(contracts text[], owners text[], deltas integer[]) RETURNS void LANGUAGE sql AS $$
  WITH d AS (
    SELECT contract_id, owner_id, sum(delta)::int AS delta
      FROM unnest(contracts, owners, deltas) AS u(contract_id, owner_id, delta)
     GROUP BY contract_id, owner_id),
  moved AS (
    SELECT d.contract_id, d.owner_id, coalesce(o.tokens, 0) AS before, coalesce(o.tokens, 0) + d.delta AS after
      FROM d LEFT JOIN aex141_owner_counts o USING (contract_id, owner_id)
     WHERE d.delta <> 0),
  upserted AS (
    INSERT INTO aex141_owner_counts (contract_id, owner_id, tokens)
    SELECT contract_id, owner_id, after FROM moved WHERE after > 0
    ON CONFLICT (contract_id, owner_id) DO UPDATE SET tokens = excluded.tokens
    RETURNING 1),
  emptied AS (
    DELETE FROM aex141_owner_counts o USING moved m
     WHERE o.contract_id = m.contract_id AND o.owner_id = m.owner_id AND m.after = 0
    RETURNING 1),
  per_collection AS (
    SELECT contract_id, sum(after - before)::int AS tokens,
           (count(*) FILTER (WHERE before = 0 AND after > 0) - count(*) FILTER (WHERE before > 0 AND after = 0))::int AS owners
      FROM moved GROUP BY contract_id)
  INSERT INTO aex141_collection_counts (contract_id, nfts_amount, nft_owners)
  SELECT contract_id, tokens, owners FROM per_collection
  ON CONFLICT (contract_id) DO UPDATE
    SET nfts_amount = aex141_collection_counts.nfts_amount + excluded.nfts_amount,
        nft_owners = aex141_collection_counts.nft_owners + excluded.nft_owners;
$$;

CREATE FUNCTION aex141_counts_after_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  contracts text[];
  owners text[];
  deltas integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(contract_id), array_agg(owner_id), array_agg(1) INTO contracts, owners, deltas FROM new_tokens;
  ELSE
    SELECT array_agg(contract_id), array_agg(owner_id), array_agg(-1) INTO contracts, owners, deltas FROM old_tokens;
  END IF;
  IF contracts IS NOT NULL THEN
    PERFORM aex141_counts_apply(contracts, owners, deltas);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER aex141_counts_on_insert AFTER INSERT ON aex141_tokens
  REFERENCING NEW TABLE AS new_tokens FOR EACH STATEMENT EXECUTE PROCEDURE aex141_counts_after_tokens();
CREATE TRIGGER aex141_counts_on_delete AFTER DELETE ON aex141_tokens
  REFERENCING OLD TABLE AS old_tokens FOR EACH STATEMENT EXECUTE PROCEDURE aex141_counts_after_tokens();

DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION aex141_counts_apply(text[], text[], integer[]) SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION aex141_counts_after_tokens() SET search_path = %I', current_schema());
END
$$;

-- Backfill an existing database.
SELECT aex141_counts_apply(array_agg(contract_id), array_agg(owner_id), array_agg(1)) FROM aex141_tokens HAVING count(*) > 0;
