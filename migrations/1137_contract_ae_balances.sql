-- The balances area follows a contract's AE (issue 87): a contract's account (its `ak_` form) gets the amounts of
-- its creation and of the calls that succeed, the remote calls' value and Lima's amounts, and loses what it pays
-- with Chain.spend, remote calls and its AENS and oracle functions (which an account's balance loses too when a
-- contract acts for it), reconciled with the node's balance as any account's; before, a contract had no changes and
-- /v3/accounts/{id}/balance answered 0. The stored heights from the first contract on derive it again
-- (the populator's backfill, asking the node; /v3/accounts/{id}/balance refuses the heights not derived yet).
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT 'balances', least(
         (SELECT min(height) FROM contracts),
         (SELECT min(height) FROM internal_transfers WHERE kind = 'contracts_lima')),
       (SELECT max(height) FROM key_blocks)
 WHERE EXISTS (SELECT 1 FROM contracts) OR EXISTS (SELECT 1 FROM internal_transfers WHERE kind = 'contracts_lima')
ON CONFLICT (area) DO UPDATE SET next_height = least(derive_backfill.next_height, EXCLUDED.next_height),
                                 to_height = greatest(derive_backfill.to_height, EXCLUDED.to_height);
