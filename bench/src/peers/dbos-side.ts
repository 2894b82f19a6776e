// DBOS Transact's side of bench:peers, through its documented functional API: a workflow of
// N sequential steps (`DBOS.registerStep`, each returning a small object), and a workflow
// that waits for one message (`DBOS.recv`). Its system tables live in their own schema of
// the same database. A workflow is `DBOS.startWorkflow(…)` awaited with `getResult()`; for
// the event cycle the starter sends the message (`DBOS.send`) in between. DBOS.launch
// starts DBOS's own loops (queue, schedule and deadline polls); they keep running during
// every window, and the script reports their traffic while idle.
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { Workflow } from './window.js';

/** DBOS's workflows, and how to shut it down. */
export interface DbosSide {
  sequential(steps: 6 | 20): Workflow;
  readonly event: Workflow;
  shutdown(): Promise<void>;
}

interface Answer {
  readonly outcome: 'confirmed';
  readonly reference: string;
}

const step = DBOS.registerStep(async (index: number) => Promise.resolve({ index, ok: true }), {
  name: 'peers_step',
});
const sequentialWorkflow = DBOS.registerWorkflow(
  async (steps: number) => {
    let last = { index: -1, ok: true };
    for (let index = 0; index < steps; index += 1) last = await step(index);
    return last.index + 1;
  },
  { name: 'peers_sequential' },
);
const eventWorkflow = DBOS.registerWorkflow(
  async () => DBOS.recv<Answer>('answer', 60), // null after 60 s without a message
  { name: 'peers_event' },
);

/**
 * Configures and launches DBOS on `url`, its system tables in `schema`.
 *
 * @example
 * ```ts
 * const dbos = await launchDbosSide(url, 'bench_x_dbos', 10);
 * await dbos.sequential(20)(0);
 * ```
 */
export async function launchDbosSide(url: string, schema: string, pool: number): Promise<DbosSide> {
  DBOS.setConfig({
    name: 'programrun-bench-peers',
    systemDatabaseUrl: url,
    systemDatabaseSchemaName: schema,
    systemDatabasePoolSize: pool,
    logLevel: 'error',
  });
  await DBOS.launch();
  const sequential = (steps: 6 | 20): Workflow => {
    return async () => {
      const handle = await DBOS.startWorkflow(sequentialWorkflow)(steps);
      const done = await handle.getResult();
      if (done !== steps) throw new Error(`DBOS workflow ran ${done} of ${steps} steps`);
    };
  };
  const byLength = { 6: sequential(6), 20: sequential(20) };
  let sent = 0;
  return {
    sequential: (steps) => byLength[steps],
    async event() {
      const handle = await DBOS.startWorkflow(eventWorkflow)();
      sent += 1;
      await DBOS.send<Answer>(
        handle.workflowID,
        { outcome: 'confirmed', reference: `ref_${sent}` },
        'answer',
      );
      const answer = await handle.getResult();
      if (answer?.outcome !== 'confirmed') throw new Error('DBOS workflow got no answer');
    },
    shutdown: () => DBOS.shutdown(),
  };
}
