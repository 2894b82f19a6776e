// One scenario: its diagram, inputs schema and example inputs, and (test keys that may
// create runs) the "Create a test run" form generated from the schema.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Scenario } from '../../api/types.js';
import { useCan, useTestMode } from '../../auth/session.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { Region } from '../../components/Region.js';
import { ScenarioDiagram } from '../../components/ScenarioDiagram.js';
import { CreateRunForm } from './CreateRunForm.js';
import '../features.css';

/** Props of {@link ScenarioPage}. */
export interface ScenarioPageProps {
  id: string;
}

/** The Scenario page. */
export function ScenarioPage({ id }: ScenarioPageProps) {
  const test = useTestMode();
  const can = useCan();
  const [scenario, setScenario] = useState<Scenario | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const controller = new AbortController();
    setScenario(null);
    setError(null);
    api
      .get<Scenario>(`/v1/scenarios/${encodeURIComponent(id)}`, {}, controller.signal)
      .then(setScenario, (failure: unknown) => !controller.signal.aborted && setError(failure));
    return () => controller.abort();
  }, [id]);

  if (scenario === null) {
    return (
      <>
        <h1>{id}</h1>
        <ErrorAlert error={error} />
        {error === null ? <p role="status">Loading the scenario…</p> : null}
      </>
    );
  }
  return (
    <>
      <h1>{scenario.title}</h1>
      <p>{scenario.summary}</p>
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <code>{scenario.id}</code>
        </dd>
        <dt>Family</dt>
        <dd>{scenario.family}</dd>
        <dt>Asset track</dt>
        <dd>{scenario.asset_track}</dd>
        <dt>Digest</dt>
        <dd>
          <code class="digest">{scenario.digest}</code>
        </dd>
      </dl>
      <div class="run-grid">
        <Region title="Diagram" class="wide">
          <ScenarioDiagram scenarioId={scenario.id} />
        </Region>
        <Region title="Inputs schema">
          <pre tabIndex={0}>{JSON.stringify(scenario.input_schema, null, 2)}</pre>
        </Region>
        <Region title="Example inputs">
          <pre tabIndex={0}>{JSON.stringify(scenario.example_inputs, null, 2)}</pre>
        </Region>
        {test && can('runs:write') ? (
          <div class="region wide">
            <CreateRunForm key={scenario.id} scenario={scenario} />
          </div>
        ) : null}
      </div>
    </>
  );
}
