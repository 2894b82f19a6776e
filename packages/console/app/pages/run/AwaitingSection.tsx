// What the run waits for: step, kind, party, approvers, quorum, decisions so far, and the
// deadline with a live countdown on the environment's clock.
import type { ProgramRun } from '../../api/types.js';
import { Region } from '../../components/Region.js';
import { Time } from '../../components/Time.js';
import { countdown } from '../../format/duration.js';
import { useClockOffset, useNow } from './use-clock-offset.js';

function Countdown({ deadline, offset }: { deadline: string; offset: number }) {
  const now = useNow(offset);
  const at = Date.parse(deadline);
  return (
    <>
      <Time value={deadline} /> <span class="countdown">({countdown(at, now)})</span>
    </>
  );
}

/** The "Awaiting" region. */
export function AwaitingSection({ run }: { run: ProgramRun }) {
  const offset = useClockOffset(!run.livemode, run.updated_at);
  const awaiting = run.awaiting;
  return (
    <Region title="Awaiting">
      {awaiting === null ? (
        <p>Nothing: the run is {run.status}.</p>
      ) : (
        <dl class="facts">
          <dt>Step</dt>
          <dd>
            <code>{awaiting.step}</code>
          </dd>
          <dt>Kind</dt>
          <dd>{awaiting.kind}</dd>
          <dt>Party</dt>
          <dd>{awaiting.party ?? '—'}</dd>
          {awaiting.approvers !== null ? (
            <>
              <dt>Approvers</dt>
              <dd>{awaiting.approvers.length > 0 ? awaiting.approvers.join(', ') : '—'}</dd>
            </>
          ) : null}
          {awaiting.quorum !== null ? (
            <>
              <dt>Quorum</dt>
              <dd>
                Quorum {awaiting.approvals ?? 0} of {awaiting.quorum}
              </dd>
            </>
          ) : null}
          {awaiting.kind === 'approval' ? (
            <>
              <dt>Decisions</dt>
              <dd>
                {awaiting.decisions && awaiting.decisions.length > 0 ? (
                  <ul class="decisions">
                    {awaiting.decisions.map((decision) => (
                      <li key={`${decision.actor}-${decision.at}`}>
                        <strong>{decision.decision}</strong> by {decision.actor}
                        {decision.label !== null ? ` (${decision.label})` : ''},{' '}
                        <Time value={decision.at} />
                        {decision.note !== null ? <q class="note">{decision.note}</q> : null}
                      </li>
                    ))}
                  </ul>
                ) : (
                  'none yet'
                )}
              </dd>
            </>
          ) : null}
          {awaiting.handoff_job ? (
            <>
              <dt>Delivery to the partner</dt>
              <dd>
                {awaiting.handoff_job.status}, {awaiting.handoff_job.attempts} call
                {awaiting.handoff_job.attempts === 1 ? '' : 's'}
                {awaiting.handoff_job.last_error !== null
                  ? `; last error: ${awaiting.handoff_job.last_error.class} (${awaiting.handoff_job.last_error.message})`
                  : ''}
              </dd>
            </>
          ) : null}
          <dt>Deadline</dt>
          <dd>
            {awaiting.deadline === null ? (
              'none'
            ) : (
              <Countdown deadline={awaiting.deadline} offset={offset} />
            )}
          </dd>
        </dl>
      )}
    </Region>
  );
}
