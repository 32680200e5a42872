-- A hook's next delivery is its first pending row in its order (src/db/writes/webhook-queue.ts nextDeliveries). The
-- pending rows' index named only the hook, so the sender read the order's index and stepped over every row sent
-- within WEBHOOK_RETENTION_MS (a week of a busy account's hook) to reach it; this one holds the pending rows in order.
DROP INDEX webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, height, rank, micro_index, tx_index, seq)
  WHERE status = 'pending';
