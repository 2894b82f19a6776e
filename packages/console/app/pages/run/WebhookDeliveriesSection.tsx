// The run's webhook events and how their deliveries stand (`GET /v1/events?run=`); with
// webhooks:manage, each event's attempts on demand.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { EventRecord, ListPage, ProgramRun } from '../../api/types.js';
import { useCan } from '../../auth/session.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { Region } from '../../components/Region.js';
import { Time } from '../../components/Time.js';
import { TableScroll } from '../../components/TableScroll.js';

interface Delivery {
  id: string;
  endpoint: string;
  status: string;
  attempt_count: number;
  last_error: string | null;
}

function Attempts({ event }: { event: EventRecord }) {
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () =>
    api
      .get<ListPage<Delivery>>(`/v1/events/${encodeURIComponent(event.id)}/deliveries`)
      .then((page) => setDeliveries(page.data), setError);
  if (deliveries === null) {
    return (
      <>
        <button type="button" class="link-button" onClick={() => void load()}>
          Show deliveries<span class="visually-hidden"> of event {event.sequence}</span>
        </button>
        <ErrorAlert error={error} />
      </>
    );
  }
  if (deliveries.length === 0) return <span>no endpoint subscribed</span>;
  return (
    <ul class="deliveries">
      {deliveries.map((delivery) => (
        <li key={delivery.id}>
          <code>{delivery.endpoint}</code>: {delivery.status}, {delivery.attempt_count} attempt
          {delivery.attempt_count === 1 ? '' : 's'}
          {delivery.last_error !== null ? ` (${delivery.last_error})` : ''}
        </li>
      ))}
    </ul>
  );
}

/** The "Webhook deliveries" region. */
export function WebhookDeliveriesSection({ run }: { run: ProgramRun }) {
  const can = useCan();
  const [events, setEvents] = useState<EventRecord[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const controller = new AbortController();
    api
      .get<ListPage<EventRecord>>('/v1/events', { run: run.id, limit: 100 }, controller.signal)
      .then(
        (page) => {
          setError(null);
          setEvents([...page.data].sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0)));
        },
        (failure: unknown) => !controller.signal.aborted && setError(failure),
      );
    return () => controller.abort();
  }, [run.id, run.updated_at]);

  return (
    <Region title="Webhook deliveries" class="wide">
      <ErrorAlert error={error} />
      {events === null ? (
        error === null ? (
          <p role="status">Loading events…</p>
        ) : null
      ) : events.length === 0 ? (
        <p>No events yet.</p>
      ) : (
        <TableScroll label="Webhook events of this run">
          <table>
            <caption class="visually-hidden">Webhook events of this run</caption>
            <thead>
              <tr>
                <th scope="col">Sequence</th>
                <th scope="col">Event</th>
                <th scope="col">Created</th>
                <th scope="col">Delivery</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id}>
                  <td>{event.sequence ?? '—'}</td>
                  <th scope="row">
                    <code>{event.type}</code>
                  </th>
                  <td>
                    <Time value={event.created} />
                  </td>
                  <td>
                    <span class={`delivery delivery-${event.delivery_status}`}>
                      {event.delivery_status}
                    </span>
                    {event.pending_webhooks > 0 ? ` (${event.pending_webhooks} pending)` : ''}
                    {can('webhooks:manage') && event.delivery_status !== 'none' ? (
                      <>
                        {' '}
                        <Attempts event={event} />
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Region>
  );
}
