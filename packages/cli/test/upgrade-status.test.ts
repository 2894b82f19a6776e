// `programrun upgrade status`: the runs of each version of a scenario in a store, by status,
// and whether each version has drained. Runs are created by an engine on a memory store
// the command then reads, as it would read the server's store.
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
import { upgradeStatusCommand } from '../src/commands/upgrade-status.js';
import type { OpenedStore } from '../src/store/open-store.js';
import { programrun } from './run-bin.js';

const compiledAt = async (url: URL) => {
  const loaded = await loadScenarioFile(fileURLToPath(url));
  if (!loaded.ok) throw new Error(`${url.pathname} does not load`);
  return compile(loaded.scenario);
};

describe('programrun upgrade status', () => {
  it('counts each version’s runs by status and says which has drained', async () => {
    const v1 = await compiledAt(new URL('../../../scenarios/bank-payout@v1.yaml', import.meta.url));
    const v2 = await compiledAt(
      new URL('../../dsl/test/fixtures/upgrades/bank-payout@v2.yaml', import.meta.url),
    );
    const wallet = await compiledAt(
      new URL('../../../scenarios/wallet-delivery@v1.yaml', import.meta.url),
    );
    const store = createMemoryStore();
    const engine = createEngine({
      store,
      scenarios: [v1, v2, wallet],
      testClock: createVirtualClock(),
    });
    const scope: Scope = { account: 'acct_ops', environment: 'test' };
    // Above 50,000.00 a payout waits for a compliance review, where a cancel is accepted.
    const inputs = { ...v1.definition.example_inputs, amount: '60000.00' };
    const create = (scenario_id: string) => engine.createRun(scope, { scenario_id, inputs });
    const cancel = (id: string) => engine.signal(scope, id, { kind: 'cancel', reason: 'drain' });
    // Three runs on v1, one of them cancelled; two on v2; another account's run, another scenario.
    const runs = [await create(v1.id), await create(v1.id), await create(v1.id)];
    expect((await cancel(runs[0]!.run.id)).applied).toBe(true);
    await create(v2.id);
    await create(v2.id);
    await engine.createRun(
      { account: 'acct_other', environment: 'test' },
      { scenario_id: v1.id, inputs: v1.definition.example_inputs },
    );
    await engine.createRun(scope, {
      scenario_id: wallet.id,
      inputs: wallet.definition.example_inputs,
    });

    const lines: string[] = [];
    const openStore = (): Promise<OpenedStore> =>
      Promise.resolve({ store, durable: true, close: () => Promise.resolve() });
    const output = {
      out: (line: string) => lines.push(line),
      err: (line: string) => lines.push(line),
    };
    await upgradeStatusCommand(
      ['bank-payout@v1', '--account', 'acct_ops', '--env', 'test'],
      output,
      openStore,
    );
    expect(lines[0]).toBe('bank-payout: runs of acct_ops (test)');
    expect(lines[1]).toMatch(/^ {2}version +waiting +cancelled +total +unfinished$/);
    expect(lines[2]).toMatch(/^ {2}v1 +2 +1 +3 +2$/);
    expect(lines[3]).toMatch(/^ {2}v2 +2 +0 +2 +2$/);
    expect(lines.slice(4)).toEqual([
      'bank-payout@v1 is in use: 2 unfinished run(s)',
      'bank-payout@v2 is in use: 2 unfinished run(s)',
    ]);

    // Once v1's last runs end, it has drained.
    for (const { run } of runs.slice(1)) expect((await cancel(run.id)).applied).toBe(true);
    lines.length = 0;
    await upgradeStatusCommand(
      ['bank-payout', '--account', 'acct_ops', '--env', 'test', '--format', 'json'],
      output,
      openStore,
    );
    const report = JSON.parse(lines.join('\n')) as {
      versions: { scenario_id: string; unfinished: number; by_status: Record<string, number> }[];
    };
    expect(report.versions.map(({ scenario_id, unfinished }) => [scenario_id, unfinished])).toEqual(
      [
        ['bank-payout@v1', 0],
        ['bank-payout@v2', 2],
      ],
    );
    expect(report.versions[0]!.by_status).toEqual({ cancelled: 3 });
  });

  it('exits 2 with one line for usage problems', async () => {
    for (const args of [
      ['upgrade', 'status'],
      ['upgrade', 'status', 'bank-payout'],
      ['upgrade', 'status', 'Bank Payout', '--account', 'acct_1'],
      ['upgrade', 'status', 'bank-payout', '--account', 'acct_1', '--env', 'staging'],
    ]) {
      const result = await programrun(args, { env: { PROGRAMRUN_STORE: 'memory' } });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(/^programrun upgrade: /);
    }
  });
});
