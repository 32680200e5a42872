/**
 * @module The write of the schema's identity (migrations/1010_schema_identity.sql): what the first writer fills in,
 * never replacing what is recorded (db/queries/schema-identity.ts reads it).
 */
import type { Queryable } from '../connection/pool.ts';
import { fromRow, type IdentityRow, type RecordedIdentity } from '../queries/schema-identity.ts';

/**
 * recordIdentity fills what the row does not hold yet and returns the row as it is afterwards: a field already
 * recorded is never replaced, so of two starters racing on a new schema the first wins and the second, comparing the
 * row it gets back, sees the other's chain.
 */
export async function recordIdentity(db: Queryable, identity: RecordedIdentity): Promise<RecordedIdentity> {
  const { rows } = await db.query<IdentityRow>(
    `INSERT INTO schema_identity AS s (network_id, genesis_hash, owner_uid, owner_name) VALUES ($1, $2, $3, $4)
     ON CONFLICT (singleton) DO UPDATE SET
       network_id = coalesce(s.network_id, excluded.network_id),
       genesis_hash = coalesce(s.genesis_hash, excluded.genesis_hash),
       owner_uid = coalesce(s.owner_uid, excluded.owner_uid),
       owner_name = CASE WHEN s.owner_uid IS NULL THEN excluded.owner_name ELSE s.owner_name END
     RETURNING network_id, genesis_hash, owner_uid, owner_name`,
    [identity.networkId, identity.genesisHash, identity.ownerUid, identity.ownerName],
  );
  return fromRow(rows[0]!);
}
