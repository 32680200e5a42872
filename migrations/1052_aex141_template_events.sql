-- A collection's templates (/v3/aex141/{id}/templates) walk their creations in template id order (issue 57), and each
-- template's deletion and latest edition limit is a probe: with the index of a collection's events by kind alone, a
-- page read and sorted every creation of the collection, and each template's probes read all its deletions and
-- limits. The three kinds are few of a collection's events (its transfers and mints are the many), so the index is small.
CREATE INDEX aex141_events_templates ON aex141_events (contract_id, kind, template_id, height, micro_index, tx_index, log_idx)
  WHERE kind IN ('template_creation', 'template_deletion', 'edition_limit');
