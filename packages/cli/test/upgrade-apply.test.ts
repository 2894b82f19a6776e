// `programrun upgrade apply`: the proof of `upgrade check`, then the account's stored runs
// of the old version moved to the new one (`engine.upgradeRuns`), run by run; a dry run
// moves none and a second apply finds nothing left. Runs are created by an engine on a
// memory store the command then works on, as it would on the server's store.
import { fileURLToPath } from 'node:url';
import { compile } from '@programrun/dsl';
import { loadScenarioFile } from '@programrun/dsl/node';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  type Scope,
} from '@programrun/engine';
import { describe, expect, it } from 'vitest';
import { upgradeApplyCommand } from '../src/commands/upgrade-apply.js';
import type { OpenedStore } from '../src/store/open-store.js';
import { programrun } from './run-bin.js';

const V1 = fileURLToPath(new URL('../../../scenarios/bank-payout@v1.yaml', import.meta.url));
const UPGRADES = new URL('../../dsl/test/fixtures/upgrades/', import.meta.url);
const V2 = fileURLToPath(new URL('bank-payout@v2.yaml', UPGRADES));
const MIGRATION = fileURLToPath(new URL('bank-payout@v1-to-v2.yaml', UPGRADES));

describe('programrun upgrade apply', () => {
  it('moves the waiting runs, after a dry run that moves none, and then finds none left', async () => {
    const loaded = await loadScenarioFile(V1);
    if (!loaded.ok) throw new Error('bank-payout@v1 does not load');
    const v1 = compile(loaded.scenario);
    const store = createMemoryStore();
    const engine = createEngine({ store, scenarios: [v1], testClock: createVirtualClock() });
    const scope: Scope = { account: 'acct_ops', environment: 'test' };
    const ids: string[] = [];
    for (let index = 0; index < 2; index += 1)
      ids.push(
        (
          await engine.createRun(scope, {
            scenario_id: v1.id,
            inputs: v1.definition.example_inputs,
          })
        ).run.id,
      );

    const lines: string[] = [];
    const output = {
      out: (line: string) => lines.push(line),
      err: (line: string) => lines.push(line),
    };
    const openStore = (): Promise<OpenedStore> =>
      Promise.resolve({ store, durable: true, close: () => Promise.resolve() });
    const apply = (...extra: string[]) =>
      upgradeApplyCommand(
        [V1, V2, '--migration', MIGRATION, '--account', 'acct_ops', '--env', 'test', ...extra],
        output,
        openStore,
      );
    const operator = ['--actor', 'ops:upgrader'];
    const scenarioOf = async (id: string) =>
      (await store.transaction((tx) => tx.getRun(scope, id)))!.scenario_id;

    expect(await apply('--dry-run', '--format', 'json')).toBe(0);
    const dry = JSON.parse(lines.join('\n')) as {
      counts: Record<string, number>;
      dry_run: boolean;
    };
    expect(dry).toMatchObject({ dry_run: true, counts: { would_upgrade: 2, upgraded: 0 } });
    for (const id of ids) expect(await scenarioOf(id)).toBe('bank-payout@v1');

    lines.length = 0;
    expect(await apply(...operator)).toBe(0);
    expect(lines[0]).toBe('bank-payout@v1 → bank-payout@v2 for acct_ops (test) by ops:upgrader');
    expect(lines.slice(1, 3).sort()).toEqual(
      ids.map((id) => `  ${id}  upgraded at hold_funds`).sort(),
    );
    expect(lines[3]).toBe('2 upgraded');
    for (const id of ids) expect(await scenarioOf(id)).toBe('bank-payout@v2');
    // Each moved run's record says who moved it.
    for (const id of ids) {
      const events = await engine.listEvents(scope, id);
      expect(events.at(-1)).toMatchObject({
        type: 'program_run.upgraded',
        data: { upgraded_by: 'ops:upgrader' },
      });
    }

    lines.length = 0;
    expect(await apply(...operator)).toBe(0);
    expect(lines.at(-1)).toBe('No run of bank-payout@v1 in this account.');
  });

  it('exits 2 with one line for usage problems and for a file it cannot read', async () => {
    const proven = ['upgrade', 'apply', V1, V2, '--migration', MIGRATION, '--account', 'acct_1'];
    for (const args of [
      ['upgrade', 'apply'],
      ['upgrade', 'apply', V1, V2],
      ['upgrade', 'apply', V1, V2, '--account', 'acct_1', '--env', 'staging'],
      ['upgrade', 'apply', V1, V2, '--account', 'acct_1', '--status', 'asleep'],
      // The memory store holds no runs between commands.
      [...proven, '--actor', 'ops:alice'],
      // Moving runs names who moves them, as an actor.
      [...proven, '--env', 'test'],
      [...proven, '--actor', ' ops:alice'],
    ]) {
      const result = await programrun(args, { env: { PROGRAMRUN_STORE: 'memory' } });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(/^programrun upgrade: /);
    }
    const missing = await programrun(
      ['upgrade', 'apply', V1, `${V2}.missing`, '--account', 'acct_1', '--actor', 'ops:alice'],
      { env: { PROGRAMRUN_STORE: 'memory' } },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file/);
  });
});
