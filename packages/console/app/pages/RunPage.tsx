// One run, live: status, statechart, stages, what it awaits, posture, policy, the verified
// lifecycle, webhook deliveries, actions and evidence.
import { useMemo } from 'preact/hooks';
import { ErrorAlert } from '../components/ErrorAlert.js';
import { Region } from '../components/Region.js';
import { ScenarioDiagram } from '../components/ScenarioDiagram.js';
import { StatusText } from '../components/StatusText.js';
import { Time } from '../components/Time.js';
import { EvidencePanel } from '../features/evidence/EvidencePanel.js';
import { href, Link } from '../routing/navigation.js';
import { ActionsSection } from './run/ActionsSection.js';
import { AwaitingSection } from './run/AwaitingSection.js';
import { LifecycleSection } from './run/LifecycleSection.js';
import { PolicySection } from './run/PolicySection.js';
import { PostureSection } from './run/PostureSection.js';
import { StagesSection } from './run/StagesSection.js';
import { statechartMarks } from './run/statechart-marks.js';
import { useRun } from './run/use-run.js';
import { WebhookDeliveriesSection } from './run/WebhookDeliveriesSection.js';

/** Props of {@link RunPage}. */
export interface RunPageProps {
  id: string;
}

/** One run. */
export function RunPage({ id }: RunPageProps) {
  const { run, records, recordsLoading, error, setRun } = useRun(id);
  const marks = useMemo(() => (run ? statechartMarks(records, run) : null), [records, run]);

  return (
    <>
      <h1 class="run-id">{id}</h1>
      <ErrorAlert error={error} />
      {run === null ? (
        error === null ? (
          <p role="status">Loading the run…</p>
        ) : null
      ) : (
        <>
          <div class="run-summary">
            <p class="run-status" aria-live="polite">
              Status: <StatusText status={run.status} />
              {run.stage !== null ? (
                <>
                  {' '}
                  · stage <code>{run.stage}</code>
                </>
              ) : null}
              {run.outcome !== null ? (
                <>
                  {' '}
                  · {run.outcome.reason}
                  {run.outcome.message !== null ? `: ${run.outcome.message}` : ''}
                </>
              ) : null}
            </p>
            <dl class="facts">
              <dt>Scenario</dt>
              <dd>
                <Link href={href({ name: 'scenario', id: run.scenario_id })}>
                  {run.scenario_id}
                </Link>
              </dd>
              <dt>Created</dt>
              <dd>
                <Time value={run.created_at} />
              </dd>
              <dt>Updated</dt>
              <dd>
                <Time value={run.updated_at} />
              </dd>
              {run.session_id !== null ? (
                <>
                  <dt>Session</dt>
                  <dd>
                    <code>{run.session_id}</code>
                  </dd>
                </>
              ) : null}
              {run.source_path !== null ? (
                <>
                  <dt>Source path</dt>
                  <dd>
                    <code>{run.source_path}</code>
                  </dd>
                </>
              ) : null}
            </dl>
          </div>
          <div class="run-grid">
            <Region title="Statechart" class="wide">
              <ScenarioDiagram scenarioId={run.scenario_id} marks={marks} />
            </Region>
            <ActionsSection run={run} onRun={setRun} />
            <AwaitingSection run={run} />
            <StagesSection run={run} />
            <PostureSection run={run} />
            <PolicySection run={run} />
            <LifecycleSection run={run} records={records} loading={recordsLoading} />
            <WebhookDeliveriesSection run={run} />
            <Region title="Evidence">
              <EvidencePanel run={run} />
            </Region>
          </div>
        </>
      )}
    </>
  );
}
