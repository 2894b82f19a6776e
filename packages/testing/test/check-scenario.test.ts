import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CheckError,
  checkScenario,
  createScenarioChecker,
  formatCheckReport,
  loadCompiledScenario,
  PROPERTY_NAMES,
  resolveNumRuns,
  selectProperties,
} from '../src/index.js';

const wallet = await loadCompiledScenario(
  new URL('../../../scenarios/wallet-delivery@v1.yaml', import.meta.url),
);

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('checkScenario', () => {
  it('reports every property with its runs, the seed and the traces it ran', async () => {
    const report = await checkScenario(wallet, { numRuns: 15, seed: 11 });
    expect(report).toMatchObject({ scenario: 'wallet-delivery@v1', numRuns: 15, seed: 11 });
    expect(report.passed, formatCheckReport(report)).toBe(true);
    expect(report.properties.map((property) => property.name)).toEqual(PROPERTY_NAMES);
    for (const property of report.properties) {
      expect(property.passed).toBe(true);
      // money-conservation is skipped (0 runs) should the scenario declare no legs.
      expect(property.runs).toBe(property.skipped === undefined ? 15 : 0);
      expect(property.description).not.toBe('');
    }
    // One trace per case, shared by every trace property, plus determinism's second run.
    expect(report.traces).toBe(30);
    expect(report.durationMs).toBeGreaterThan(0);
  });

  it('gives the same report for the same seed', async () => {
    const options = { numRuns: 10, seed: 5, properties: ['determinism', 'invariants'] as const };
    const first = await checkScenario(wallet, options);
    const second = await checkScenario(wallet, options);
    expect({ ...second, durationMs: 0 }).toEqual({ ...first, durationMs: 0 });
  });

  it('checks only the properties asked for, in check order', async () => {
    const report = await checkScenario(wallet, {
      numRuns: 5,
      properties: ['evidence', 'inputs-valid'],
    });
    expect(report.properties.map((property) => property.name)).toEqual([
      'inputs-valid',
      'evidence',
    ]);
  });

  it('reports progress over every property up to the total', async () => {
    const seen: [number, number][] = [];
    await checkScenario(wallet, {
      numRuns: 8,
      properties: ['inputs-valid', 'termination', 'money-conservation'],
      onProgress: (done, total) => seen.push([done, total]),
    });
    expect(seen.every(([, total]) => total === 24)).toBe(true);
    expect(seen.map(([done]) => done)).toEqual(
      [...seen.map(([done]) => done)].sort((a, b) => a - b),
    );
    expect(seen.at(-1)).toEqual([24, 24]);
  });

  it('takes the run count from PROGRAMRUN_PROPERTY_RUNS when the option is absent', async () => {
    vi.stubEnv('PROGRAMRUN_PROPERTY_RUNS', '3');
    expect((await checkScenario(wallet, { properties: ['invariants'] })).numRuns).toBe(3);
    expect((await checkScenario(wallet, { numRuns: 4, properties: ['invariants'] })).numRuns).toBe(
      4,
    );
  });

  it('skips money conservation for a scenario without legs', async () => {
    const withoutLegs = { ...wallet, definition: { ...wallet.definition, legs: [] } };
    const report = await checkScenario(withoutLegs, {
      numRuns: 3,
      properties: ['money-conservation'],
    });
    expect(report.properties[0]).toMatchObject({
      passed: true,
      runs: 0,
      skipped: 'the scenario declares no money legs',
    });
    expect(formatCheckReport(report)).toContain(
      'money-conservation     -  skipped (the scenario declares no money legs)',
    );
  });

  it('refuses unknown properties and bad options with stable codes', async () => {
    const code = (work: () => unknown) => {
      try {
        work();
      } catch (error) {
        return error instanceof CheckError ? error.code : String(error);
      }
      return undefined;
    };
    expect(code(() => selectProperties(['speed']))).toBe('unknown_property');
    expect(code(() => createScenarioChecker(wallet, { numRuns: 0 }))).toBe('invalid_check_option');
    expect(code(() => createScenarioChecker(wallet, { seed: 1.5 }))).toBe('invalid_check_option');
    expect(code(() => createScenarioChecker(wallet, { path: '1:2' }))).toBe('invalid_check_option');
    expect(code(() => createScenarioChecker(wallet, { maxActions: -1 }))).toBe(
      'invalid_check_option',
    );
    expect(code(() => resolveNumRuns(undefined, { PROGRAMRUN_PROPERTY_RUNS: 'many' }))).toBe(
      'invalid_check_option',
    );
    await expect(checkScenario(wallet, { properties: ['speed' as 'evidence'] })).rejects.toThrow(
      /Unknown property speed/,
    );
  });

  it('resolves the run count: option, then environment, then 100', () => {
    expect(resolveNumRuns(7, { PROGRAMRUN_PROPERTY_RUNS: '1000' })).toBe(7);
    expect(resolveNumRuns(undefined, { PROGRAMRUN_PROPERTY_RUNS: '1000' })).toBe(1000);
    expect(resolveNumRuns(undefined, {})).toBe(100);
  });
});
