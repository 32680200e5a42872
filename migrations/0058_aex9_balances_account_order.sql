-- An account's AEX-9 balances are listed in contract key order, bytewise (COLLATE "C", as /v3 compares contract
-- ids); the index of 0051 kept them in the database's collation, so a page of an account holding many tokens read
-- all of its balances, joined every AEX-9 contract and sorted (1000 tokens: 7.4 ms, growing with the account and
-- with the number of contracts). In the pages' own order the walk reads the page's rows only.
-- PostgreSQL 11 compatible.
CREATE INDEX aex9_balances_account_key ON aex9_balances (account, (contract_id COLLATE "C"));
DROP INDEX aex9_balances_account;
