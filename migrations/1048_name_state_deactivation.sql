-- /v3/names?by=deactivation walks name_state by (expires_at, name) in either direction (issue 57): ORDER BY
-- expires_at DESC puts the names without an expiry first, which index name_state_expires (DESC NULLS LAST) does not
-- hand out, so every page read and sorted all the names. This index, walked forwards or backwards, gives both orders.
-- PostgreSQL 11 compatible.
CREATE INDEX name_state_deactivation ON name_state (expires_at, name);
