// Countdowns and the Runs page's filters.
import { describe, expect, it } from 'vitest';
import { countdown, formatDuration } from '../../app/format/duration.js';
import {
  filtersFromSearch,
  isoFromLocal,
  listQuery,
  searchFromFilters,
} from '../../app/pages/runs/runs-filters.js';

describe('countdown', () => {
  it('says how long until or since a deadline', () => {
    expect(countdown(80_000, 0)).toBe('in 1m 20s');
    expect(countdown(0, 80_000)).toBe('1m 20s ago');
    expect(countdown(500, 0)).toBe('now');
    expect(formatDuration(3_600_000 * 26)).toBe('1d 2h');
    expect(formatDuration(3_600_000 + 300_000)).toBe('1h 5m');
    expect(formatDuration(45_999)).toBe('45s');
    expect(formatDuration(120_000)).toBe('2m');
  });
});

describe('runs filters', () => {
  it('round-trip through the query string, leaving empty ones out', () => {
    const filters = filtersFromSearch('?status=waiting&q=%20sess_1%20&stage=');
    expect(filters).toEqual({
      scenario_id: '',
      status: 'waiting',
      stage: '',
      created_from: '',
      created_before: '',
      q: 'sess_1',
    });
    expect(searchFromFilters(filters)).toBe('?status=waiting&q=sess_1');
    expect(searchFromFilters(filtersFromSearch(''))).toBe('');
  });

  it('become the API’s query, dates as ISO 8601', () => {
    const filters = filtersFromSearch(
      '?scenario_id=wallet-delivery%40v1&created_from=2025-01-02T10%3A00',
    );
    const query = listQuery(filters, 'prun_9', 25);
    expect(query).toMatchObject({
      limit: 25,
      scenario_id: 'wallet-delivery@v1',
      starting_after: 'prun_9',
      'created[gte]': new Date('2025-01-02T10:00').toISOString(),
      'created[lt]': undefined,
      status: undefined,
    });
    expect(isoFromLocal('not a date')).toBeUndefined();
  });
});
