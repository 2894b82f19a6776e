import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  formatGoldenSequence,
  goldenEvents,
  goldenPlan,
  HAPPY_GOLDEN_PATH,
  type GoldenPath,
} from '../src/index.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);

const GOLDEN_DIR = fileURLToPath(new URL('./golden/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const UPDATE_COMMAND = 'UPDATE_GOLDEN=1 pnpm --filter @programrun/testing test';

/**
 * The failure paths pinned per scenario (every scenario also pins HAPPY_GOLDEN_PATH).
 * Steps are applied to whatever the run waits for: `next` lets the pending partner answer.
 */
const FAILURE_PATHS: Readonly<Record<string, readonly GoldenPath[]>> = {
  'bank-payout@v1': [
    // The maker submitted; the client cancels while the checkers decide: the hold is released.
    {
      name: 'client-cancels',
      status: 'cancelled',
      plan: goldenPlan('next', 'next', 'next', 'approve', 'cancel'),
    },
    // Nobody releases the payout in time: the hold is released and the run faults.
    {
      name: 'release-expires',
      status: 'faulted',
      plan: goldenPlan('next', 'next', 'next', 'approve', 'expire'),
    },
  ],
  'bridge-routing@v1': [
    { name: 'release-declined', status: 'cancelled', plan: goldenPlan('next', 'reject') },
    // Burned on the source chain (past the point of no return), then the mint fails.
    {
      name: 'mint-fails',
      status: 'faulted',
      plan: goldenPlan('next', 'approve', 'next', 'partner-fails'),
    },
  ],
  'qr-merchant-settlement@v1': [
    // The payer lets three quotes lapse: the fourth request is not made.
    {
      name: 'quotes-lapse',
      status: 'cancelled',
      plan: goldenPlan('next', 'next', 'expire', 'expire', 'expire'),
    },
    // The scheme rejects the payment after the debit: the payer is refunded.
    {
      name: 'scheme-rejects',
      status: 'faulted',
      plan: goldenPlan('next', 'next', 'approve', 'next', 'partner-rejects'),
    },
  ],
  'reserve-usd-cycle@v1': [
    {
      name: 'mint-declined',
      status: 'faulted',
      plan: goldenPlan('next', 'next', 'next', 'next', 'reject'),
    },
    // After the release (pivot) the participant declines the OTC trade and keeps its RUSD.
    {
      name: 'otc-declined',
      status: 'cancelled',
      plan: goldenPlan(
        'next',
        'next',
        'next',
        'next',
        'approve',
        'approve',
        'next',
        'next',
        'next',
        'reject',
      ),
    },
  ],
  'sukuk-servicing@v1': [
    {
      name: 'shariah-board-rejects',
      status: 'faulted',
      plan: goldenPlan('next', 'next', 'reject'),
    },
    // Partners stay silent: the collection times out, the trustee approves a facility draw, the advance times out.
    {
      name: 'collection-times-out',
      status: 'faulted',
      plan: { ...goldenPlan('expire', 'approve'), partnersAnswer: false },
    },
  ],
  'treasury-conversion@v1': [
    {
      name: 'mandate-declined',
      status: 'cancelled',
      plan: goldenPlan('approve', 'next', 'reject'),
    },
    // The bought currency never arrives: the sold leg is recalled.
    {
      name: 'bought-leg-not-delivered',
      status: 'faulted',
      plan: goldenPlan(
        'approve',
        'next',
        'approve',
        'next',
        'approve',
        'next',
        'next',
        'partner-rejects',
      ),
    },
  ],
  'wallet-delivery@v1': [
    { name: 'screening-rejected', status: 'faulted', plan: goldenPlan('partner-rejects') },
    { name: 'over-cap', status: 'faulted', inputs: { amount: '20000.00' }, plan: goldenPlan() },
  ],
};

const fixtureName = (scenarioId: string, pathName: string): string =>
  `${scenarioId}.${pathName}.events.txt`;

const declared = new Set(
  scenarios.flatMap((compiled) =>
    [HAPPY_GOLDEN_PATH, ...(FAILURE_PATHS[compiled.id] ?? [])].map((path) =>
      fixtureName(compiled.id, path.name),
    ),
  ),
);

describe.each(scenarios.map((compiled) => [compiled.id, compiled] as const))(
  'golden events of %s',
  (id, compiled) => {
    const paths = [HAPPY_GOLDEN_PATH, ...(FAILURE_PATHS[id] ?? [])];

    it('declares at least one failure path', () => {
      expect(
        FAILURE_PATHS[id]?.length ?? 0,
        `Declare a failure path for ${id} in FAILURE_PATHS (test/golden-events.test.ts).`,
      ).toBeGreaterThan(0);
      expect(new Set(paths.map((path) => path.name)).size).toBe(paths.length);
    });

    it.each(paths.map((path) => [path.name, path] as const))(
      '%s matches its fixture',
      async (name, path) => {
        expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        const sequence = await goldenEvents(compiled, path);
        const text = formatGoldenSequence(sequence);
        expect(sequence.run.status, sequence.log.join('\n')).toBe(path.status);
        expect(sequence.events.map((event) => event.sequence)).toEqual(
          sequence.events.map((_event, index) => index + 1),
        );
        expect(sequence.events.at(-1)?.type).toBe('program_run.evidence.sealed');
        expect(formatGoldenSequence(await goldenEvents(compiled, path)), 'determinism').toBe(text);

        const file = join(GOLDEN_DIR, fixtureName(id, name));
        if (UPDATE) {
          await mkdir(GOLDEN_DIR, { recursive: true });
          await writeFile(file, text);
          console.info(`UPDATE_GOLDEN=1: wrote test/golden/${fixtureName(id, name)}`);
          return;
        }
        if (!existsSync(file)) {
          throw new Error(
            `No golden fixture test/golden/${fixtureName(id, name)}. Create it with ` +
              `\`${UPDATE_COMMAND}\`, review it and commit it.`,
          );
        }
        expect(
          text,
          `The events of ${id} path "${name}" changed. If that is intended, run ` +
            `\`${UPDATE_COMMAND}\` and review the fixture diff.`,
        ).toBe(await readFile(file, 'utf8'));
      },
    );
  },
);

describe('golden fixtures', () => {
  it('declares paths only for scenarios that exist', () => {
    const ids = new Set(scenarios.map((compiled) => compiled.id));
    expect(Object.keys(FAILURE_PATHS).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('has a fixture only for declared paths', async () => {
    const files = existsSync(GOLDEN_DIR) ? await readdir(GOLDEN_DIR) : [];
    const orphans = files.filter((file) => !declared.has(file));
    if (UPDATE) {
      for (const orphan of orphans) {
        await rm(join(GOLDEN_DIR, orphan));
        console.info(`UPDATE_GOLDEN=1: removed test/golden/${orphan}`);
      }
      return;
    }
    expect(orphans, `Remove them, or run \`${UPDATE_COMMAND}\`.`).toEqual([]);
  });
});
