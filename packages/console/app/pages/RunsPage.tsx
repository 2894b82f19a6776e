// Runs, newest first: filters (kept in the query string), search, and cursor paging.
import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { RUN_STATUSES, type ListPage, type ProgramRun, type Scenario } from '../api/types.js';
import { ErrorAlert } from '../components/ErrorAlert.js';
import { StatusText } from '../components/StatusText.js';
import { Time } from '../components/Time.js';
import { consolePrefix, href, Link, navigate } from '../routing/navigation.js';
import {
  filtersFromSearch,
  listQuery,
  searchFromFilters,
  type RunsFilters,
} from './runs/runs-filters.js';
import { TableScroll } from '../components/TableScroll.js';

const PAGE_SIZE = 25;

/** Props of {@link RunsPage}. */
export interface RunsPageProps {
  /** The location's query string: the filters. */
  search: string;
}

function FilterForm({ initial, scenarios }: { initial: RunsFilters; scenarios: Scenario[] }) {
  const [filters, setFilters] = useState(initial);
  useEffect(() => setFilters(initial), [initial]);
  const field = (name: keyof RunsFilters) => ({
    id: `filter-${name}`,
    name,
    value: filters[name],
    onInput: (event: { currentTarget: { value: string } }) =>
      setFilters({ ...filters, [name]: event.currentTarget.value }),
  });
  const submit = (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    navigate(`${consolePrefix()}/${searchFromFilters(filters)}`);
  };
  return (
    <form class="filters" onSubmit={submit} aria-label="Filter runs">
      <div class="field">
        <label for="filter-scenario_id">Scenario</label>
        <select {...field('scenario_id')}>
          <option value="">All scenarios</option>
          {scenarios.map((scenario) => (
            <option key={scenario.id} value={scenario.id}>
              {scenario.id}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-status">Status</label>
        <select {...field('status')}>
          <option value="">Any status</option>
          {RUN_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-stage">Stage</label>
        <input type="text" {...field('stage')} autocomplete="off" />
      </div>
      <div class="field">
        <label for="filter-created_from">Created from</label>
        <input type="datetime-local" {...field('created_from')} />
      </div>
      <div class="field">
        <label for="filter-created_before">Created before</label>
        <input type="datetime-local" {...field('created_before')} />
      </div>
      <div class="field field-wide">
        <label for="filter-q">Search</label>
        <input type="text" {...field('q')} autocomplete="off" aria-describedby="filter-q-hint" />
        <p id="filter-q-hint" class="hint">
          Run id, session id, Idempotency-Key or source path (exact match).
        </p>
      </div>
      <div class="field field-actions">
        <button type="submit" class="primary">
          Apply filters
        </button>
      </div>
    </form>
  );
}

/** The runs list. */
export function RunsPage({ search }: RunsPageProps) {
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  // Paging restarts whenever the filters (the query string) change.
  const [paging, setPaging] = useState<{ search: string; cursors: string[] }>({
    search,
    cursors: [],
  });
  const cursors = useMemo(() => (paging.search === search ? paging.cursors : []), [paging, search]);
  const setCursors = (next: string[]) => setPaging({ search, cursors: next });
  const [page, setPage] = useState<ListPage<ProgramRun> | null>(null);
  const [scenarios, setScenarios] = useState<Scenario[]>([]);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.get<ListPage<Scenario>>('/v1/scenarios', undefined, controller.signal).then(
      (list) => setScenarios(list.data),
      () => setScenarios([]), // the filter then offers "All scenarios" only
    );
    return () => controller.abort();
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    const query = listQuery(filters, cursors.at(-1), PAGE_SIZE);
    api
      .get<ListPage<ProgramRun>>('/v1/program-runs', query, controller.signal)
      .then(setPage, (failure: unknown) => {
        if (!controller.signal.aborted) {
          setError(failure);
          setPage(null);
        }
      });
    return () => controller.abort();
  }, [filters, cursors]);

  const runs = page?.data ?? [];
  const last = runs.at(-1);
  return (
    <>
      <h1>Runs</h1>
      <FilterForm initial={filters} scenarios={scenarios} />
      <ErrorAlert error={error} />
      <p role="status" class="summary">
        {page === null
          ? error === null
            ? 'Loading runs…'
            : ''
          : `${runs.length === 0 ? 'No' : runs.length} run${runs.length === 1 ? '' : 's'} on this page${cursors.length > 0 ? ` (page ${cursors.length + 1})` : ''}.`}
      </p>
      {page !== null &&
      runs.length === 0 &&
      cursors.length === 0 &&
      searchFromFilters(filters) === '' ? (
        <p class="hint">
          No runs yet. Open <Link href={href({ name: 'scenarios' })}>Scenarios</Link>, pick one and
          create a test run from its form.
        </p>
      ) : null}
      {runs.length > 0 ? (
        <TableScroll label="Runs, newest first">
          <table class="runs">
            <caption class="visually-hidden">Runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Scenario</th>
                <th scope="col">Status</th>
                <th scope="col">Stage</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id}>
                  <th scope="row">
                    <Link href={href({ name: 'run', id: run.id })}>
                      <code>{run.id}</code>
                    </Link>
                  </th>
                  <td>{run.scenario_id}</td>
                  <td>
                    <StatusText status={run.status} />
                  </td>
                  <td>{run.stage ?? '—'}</td>
                  <td>
                    <Time value={run.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <div class="pager">
        <button
          type="button"
          disabled={cursors.length === 0}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Previous page
        </button>
        <button
          type="button"
          disabled={!page?.has_more || last === undefined}
          onClick={() => last && setCursors([...cursors, last.id])}
        >
          Next page
        </button>
      </div>
    </>
  );
}
