// The Runs page's filters: kept in the location's query string (so a filtered list can be
// bookmarked and Back works), turned into the API's query parameters.

/** The filter form's values (datetime-local text for the dates). */
export interface RunsFilters {
  scenario_id: string;
  status: string;
  stage: string;
  created_from: string;
  created_before: string;
  q: string;
}

const NAMES = ['scenario_id', 'status', 'stage', 'created_from', 'created_before', 'q'] as const;

/** The filters of a query string (`?status=waiting&q=…`); missing ones are `''`. */
export function filtersFromSearch(search: string): RunsFilters {
  const params = new URLSearchParams(search);
  const filters = {} as RunsFilters;
  for (const name of NAMES) filters[name] = params.get(name)?.trim() ?? '';
  return filters;
}

/** The query string of `filters` (empty ones left out), with its `?`, or `''`. */
export function searchFromFilters(filters: RunsFilters): string {
  const params = new URLSearchParams();
  for (const name of NAMES) if (filters[name].trim() !== '') params.set(name, filters[name].trim());
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** A datetime-local value (`2025-01-02T10:00`, the browser's zone) as ISO 8601, or undefined. */
export function isoFromLocal(value: string): string | undefined {
  if (value === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The query parameters of `GET /v1/program-runs` for `filters`. */
export function listQuery(
  filters: RunsFilters,
  cursor: string | undefined,
  limit: number,
): Record<string, string | number | undefined> {
  return {
    limit,
    scenario_id: filters.scenario_id || undefined,
    status: filters.status || undefined,
    stage: filters.stage || undefined,
    q: filters.q || undefined,
    'created[gte]': isoFromLocal(filters.created_from),
    'created[lt]': isoFromLocal(filters.created_before),
    starting_after: cursor,
  };
}
