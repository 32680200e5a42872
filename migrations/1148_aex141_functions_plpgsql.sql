-- Issue 88: the AEX-141 tokens' refresh and counts in plpgsql, whose plans a session can keep.
--
-- aex141_tokens_refresh and aex141_counts_apply (1002) were the last SQL functions that write and that a batch calls
-- (aex141_events' triggers for the tokens a statement touched, then aex141_tokens' for the owners they moved: three
-- calls a batch holding NFT events, eight statements). PostgreSQL plans a SQL function's statements again at every
-- call; plpgsql keeps them in the session's plan cache, as 1144 and 1146 did for name_state's refresh and the
-- statistics' adders: planned for each of a session's first five calls (custom plans, as before), then generic unless
-- that one is estimated dearer (on the bench's 10 batches every call was still planned: no change measured). Same
-- statements, same rows: a column still wins over a parameter of the same name (per_collection's `owners`), as in
-- the SQL functions. A replaced function's settings are the new definition's, so the schema's
-- search_path (1006) is set again on these two, and on 1146's adders, which lost it there (their callers, the
-- statistics' triggers and the populator's session, had it set: nothing read another schema).
-- PostgreSQL 11 compatible.
CREATE OR REPLACE FUNCTION aex141_tokens_refresh(contracts text[], tokens numeric[]) RETURNS void LANGUAGE plpgsql
AS $$
#variable_conflict use_column
BEGIN
  DELETE FROM aex141_tokens t USING unnest(contracts, tokens) AS k(contract_id, token_id)
   WHERE t.contract_id = k.contract_id AND t.token_id = k.token_id;
  INSERT INTO aex141_tokens (contract_id, token_id, owner_id, template_id, mint_tx_hash, mint_log_idx, edition)
  SELECT l.contract_id, l.token_id, l.to_id, m.template_id, m.tx_hash, m.log_idx, m.edition
    FROM unnest(contracts, tokens) AS k(contract_id, token_id)
   CROSS JOIN LATERAL (SELECT e.contract_id, e.token_id, e.kind, e.to_id FROM aex141_events e
                        WHERE e.contract_id = k.contract_id AND e.token_id = k.token_id
                          AND e.kind IN ('transfer', 'mint', 'burn', 'template_mint')
                        ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC, e.log_idx DESC LIMIT 1) l
    LEFT JOIN LATERAL (SELECT e.template_id, e.tx_hash, e.log_idx, e.edition FROM aex141_events e
                        WHERE e.contract_id = k.contract_id AND e.token_id = k.token_id AND e.kind = 'template_mint'
                        ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC, e.log_idx DESC LIMIT 1) m ON true
   WHERE l.kind <> 'burn';
END
$$;

CREATE OR REPLACE FUNCTION aex141_counts_apply(contracts text[], owners text[], deltas integer[]) RETURNS void
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
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
END
$$;

DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION aex141_tokens_refresh(text[], numeric[]) SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION aex141_counts_apply(text[], text[], integer[]) SET search_path = %I',
                 current_schema());
  EXECUTE format('ALTER FUNCTION stats_intervals_add(text[], integer[], numeric[]) SET search_path = %I',
                 current_schema());
  EXECUTE format('ALTER FUNCTION stats_miners_add(text[], numeric[]) SET search_path = %I', current_schema());
END
$$;
