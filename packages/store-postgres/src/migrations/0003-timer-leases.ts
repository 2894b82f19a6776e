import type { Migration } from './migration.js';

/**
 * Timer leases: a host claims due timers with `FOR UPDATE SKIP LOCKED` and holds them
 * until `lease_until`, so hosts sharing the database split timers and a crashed host's
 * timers are taken over when its lease ends.
 */
export const timerLeasesMigration: Migration = {
  version: 3,
  name: 'timer_leases',
  sql: (schema) => `
ALTER TABLE ${schema}.timers ADD COLUMN lease_until text;
`,
};
