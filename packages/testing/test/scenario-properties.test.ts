import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { scenarioSuite } from '../src/index.js';

// One line per scenario: a describe block with one test per checkScenario property, and
// a last one that fails when a reachable edge was taken by no trace.
// Cases per property: PROGRAMRUN_PROPERTY_RUNS (default 100).
const scenario = (id: string) => new URL(`../../../scenarios/${id}.yaml`, import.meta.url);
const SCENARIOS = [
  'bank-payout@v1',
  'bridge-routing@v1',
  'qr-merchant-settlement@v1',
  'reserve-usd-cycle@v1',
  'sukuk-servicing@v1',
  'treasury-conversion@v1',
  'wallet-delivery@v1',
];

await scenarioSuite(scenario('bank-payout@v1'));
await scenarioSuite(scenario('bridge-routing@v1'));
await scenarioSuite(scenario('qr-merchant-settlement@v1'));
await scenarioSuite(scenario('reserve-usd-cycle@v1'));
await scenarioSuite(scenario('sukuk-servicing@v1'));
await scenarioSuite(scenario('treasury-conversion@v1'));
await scenarioSuite(scenario('wallet-delivery@v1'));

it('checks every scenario under scenarios/', async () => {
  const files = await readdir(fileURLToPath(new URL('../../../scenarios/', import.meta.url)));
  const ids = files.filter((file) => file.endsWith('.yaml')).map((file) => file.slice(0, -5));
  expect(ids.sort()).toEqual(SCENARIOS);
});
