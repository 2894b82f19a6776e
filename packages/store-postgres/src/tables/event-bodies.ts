import {
  webhookEventBody,
  webhookEventOf,
  type LifecycleRecord,
  type WebhookEventRow,
} from '@programrun/engine';
import type { Sha256Digest } from '@programrun/evidence';

/** The columns of `webhook_events` the store reads and writes. */
export const EVENT_COLUMNS =
  'id, account, environment, type, created, run_id, sequence, body, trace_context';

/**
 * The event columns of `webhook_events e`, and, for a run's lifecycle event stored
 * without its body, the record and the run's scenario the body derives from: the version
 * the run was on when the record was written (before the first of the run's upgrades
 * after it, else the current one), so an event's body never changes. The join uses both
 * primary keys and reads nothing for an event stored with its body.
 */
export const eventsWithRecords = (schema: string): string => `SELECT ${EVENT_COLUMNS.split(', ')
  .map((column) => `e.${column}`)
  .join(', ')},
    lr.record AS body_record,
    coalesce(upgraded.version ->> 'scenario_id', rr.scenario_id) AS body_scenario_id,
    coalesce(upgraded.version ->> 'scenario_digest', rr.record ->> 'scenario_digest')
      AS body_scenario_digest
  FROM ${schema}.webhook_events e
  LEFT JOIN ${schema}.lifecycle_records lr
    ON e.body IS NULL AND lr.run_id = e.run_id AND lr.sequence = e.sequence
  LEFT JOIN ${schema}.runs rr ON e.body IS NULL AND rr.id = e.run_id
  LEFT JOIN LATERAL (
    SELECT u -> 'from' AS version FROM json_array_elements(rr.record -> 'upgrades') AS u
    WHERE (u ->> 'sequence')::integer > e.sequence
    ORDER BY (u ->> 'sequence')::integer LIMIT 1) upgraded ON true`;

/** An event row as {@link eventsWithRecords} reads it. */
export interface EventWithRecord extends Omit<WebhookEventRow, 'body'> {
  readonly body: string | null;
  readonly body_record: LifecycleRecord | null;
  readonly body_scenario_id: string | null;
  readonly body_scenario_digest: Sha256Digest | null;
}

/**
 * Event rows with their bodies: a lifecycle event written by a transition keeps only a
 * reference to its record (the record is stored once), and its body is derived from the
 * record, the run's scenario and the environment exactly as the engine derived it. A row
 * whose record cannot be found is refused rather than answered without its body.
 */
export function withBodies(rows: readonly EventWithRecord[]): WebhookEventRow[] {
  return rows.map((row) => {
    const {
      body,
      body_record: record,
      body_scenario_id: scenarioId,
      body_scenario_digest: scenarioDigest,
      ...event
    } = row;
    if (body !== null) return { ...event, body };
    if (!record || row.run_id === null || scenarioId === null || scenarioDigest === null)
      throw new Error(
        `webhook event ${row.id} has no body and no lifecycle record to derive it from`,
      );
    const derived = webhookEventOf(
      record,
      { id: row.run_id, scenario_id: scenarioId, scenario_digest: scenarioDigest },
      row.environment,
    );
    return { ...event, body: webhookEventBody(derived) };
  });
}
