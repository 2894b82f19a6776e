import type { SqlDatabase } from './sql/sql-database.js';

/**
 * Frees the timer and delivery leases still held in a single-host store when it opens. The
 * data-directory lock proves no other process uses these tables: leases still held are
 * from this host's previous life (killed mid-work), so its timers and deliveries are free
 * now rather than when those leases would have ended.
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
  });
}
