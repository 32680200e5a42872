-- What the populator's start-up probe found its nodes allow (dry-runs, debug endpoints, gas cap, old state), the areas
-- they leave empty and the node configuration that fills them, as /mdw/v3/status's mdw_node_gaps answers it (issue
-- 87); null until a populator of this version has probed.
ALTER TABLE sync_state ADD COLUMN node_probe jsonb;
