-- The transactions where one id stands in two fields at once (`/v3/transactions?sender_id=A&recipient_id=A`, a spend
-- to oneself; issue 57): such a row names both fields in its `fields`, so it has a space, and few rows have one. A page
-- walks this index for each (type, fields) the id's kept counts (migration 1015) name and match, in position order
-- (src/db/queries/transaction-filter.ts), never A's other transactions. PostgreSQL 11 compatible.
CREATE INDEX account_transactions_multi_field ON account_transactions (account, tx_type, fields, height, micro_index, tx_index)
  WHERE fields LIKE '% %';
