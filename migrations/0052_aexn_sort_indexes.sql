-- The orders of ae_mdw's /v3/aex9 and /v3/aex141 lists: by name or symbol lower-cased (ae_mdw's default and prefix
-- search walk its downcased tables), or exact (its case-kept tables), ties in contract key order. Contract ids are
-- base58 of a fixed-size key, so bytewise (C) order of the ids is the order of the keys. Lower-casing in the C
-- collation changes ASCII letters only.
-- PostgreSQL 11 compatible.
DROP INDEX aexn_contracts_name;
DROP INDEX aexn_contracts_symbol;
CREATE INDEX aexn_contracts_name ON aexn_contracts (aexn_type, name, (contract_id COLLATE "C"));
CREATE INDEX aexn_contracts_symbol ON aexn_contracts (aexn_type, symbol, (contract_id COLLATE "C"));
CREATE INDEX aexn_contracts_lower_name ON aexn_contracts (aexn_type, lower(name), (contract_id COLLATE "C"));
CREATE INDEX aexn_contracts_lower_symbol ON aexn_contracts (aexn_type, lower(symbol), (contract_id COLLATE "C"));
