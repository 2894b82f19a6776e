// "Scenarios": the catalogue (`GET /v1/scenarios`), a link per scenario to its page.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { ListPage, Scenario } from '../../api/types.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { href, Link } from '../../routing/navigation.js';
import '../features.css';

/** The Scenarios page. */
export function ScenariosPage() {
  const [scenarios, setScenarios] = useState<Scenario[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.get<ListPage<Scenario>>('/v1/scenarios', {}, controller.signal).then(
      (page) => setScenarios(page.data),
      (failure: unknown) => !controller.signal.aborted && setError(failure),
    );
    return () => controller.abort();
  }, []);

  return (
    <>
      <h1>Scenarios</h1>
      <ErrorAlert error={error} />
      {scenarios === null ? (
        error === null ? (
          <p role="status">Loading the scenarios…</p>
        ) : null
      ) : scenarios.length === 0 ? (
        <p>The catalogue holds no scenario.</p>
      ) : (
        <ul class="scenario-list">
          {scenarios.map((scenario) => (
            <li key={scenario.id}>
              <Link href={href({ name: 'scenario', id: scenario.id })}>{scenario.title}</Link>{' '}
              <code>{scenario.id}</code>
              <p class="hint">
                {scenario.family} · {scenario.asset_track} — {scenario.summary}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
