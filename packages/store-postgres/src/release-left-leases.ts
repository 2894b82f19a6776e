import type { SqlDatabase } from './sql/sql-database.js';

/**
 * Frees the timer, delivery and handoff job leases still held in a single-host store when
 * it opens. The data-directory lock proves no other process uses these tables: leases
 * still held are from this host's previous life (killed mid-work), so its timers,
 * deliveries and connector calls are free now rather than when those leases would have
 * ended. A job's call count stays: its next claim is the next call, with the same key.
 */
export async function releaseLeftLeases(database: SqlDatabase, quotedSchema: string) {
  await database.transaction(async (sql) => {
    await sql.query(
      `UPDATE ${quotedSchema}.timers SET lease_until = NULL WHERE lease_until IS NOT NULL`,
    );
    await sql.query(
      `UPDATE ${quotedSchema}.webhook_deliveries SET lease_until = NULL
       WHERE status = 'pending' AND lease_until IS NOT NULL`,
    );
    await sql.query(
      `UPDATE ${quotedSchema}.handoff_jobs SET lease_owner = NULL, lease_until = NULL
       WHERE status = 'queued' AND lease_until IS NOT NULL`,
    );
  });
}
