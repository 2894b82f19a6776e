// A small client of the public /v1 API for the tests' own moves (create a run, approve
// from "another tab", advance the clock): the browser under test sees only what the API
// gives, and so do these calls.
import { randomUUID } from 'node:crypto';

/** The parts of a `program_run` the tests read. */
export interface ProgramRun {
  readonly id: string;
  readonly scenario_id: string;
  readonly status: string;
  readonly stage: string | null;
  readonly session_id: string | null;
  readonly awaiting: {
    readonly kind: 'approval' | 'handoff' | 'timer';
    readonly step: string;
    readonly quorum: number | null;
    readonly approvals: number | null;
  } | null;
  readonly evidence: { readonly chain_head: string | null; readonly exportable: boolean };
  readonly updated_at: string;
}

/** A problem+json answer, thrown for any non-2xx status. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: { readonly code?: string; readonly detail?: string; readonly title?: string },
  ) {
    super(`${status} ${body.code ?? ''}: ${body.detail ?? body.title ?? ''}`);
  }
}

/** A scenario of the catalogue as `GET /v1/scenarios/{id}` gives it. */
export interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly example_inputs: Record<string, unknown>;
}

/** Calls the API of `base` with `key`. */
export function apiClient(base: string, key: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method === 'POST') headers['idempotency-key'] = randomUUID();
    const send = () =>
      fetch(`${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    let response = await send();
    // The API limits each key's request rate; the tests' loops wait as a client should.
    while (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after') ?? '1');
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      response = await send();
    }
    const text = await response.text();
    const parsed: unknown = text === '' ? {} : JSON.parse(text);
    if (!response.ok) throw new ApiProblem(response.status, parsed as ApiProblem['body']);
    return parsed as T;
  }

  const api = {
    call,
    scenario: (id: string) => call<Scenario>('GET', `/v1/scenarios/${encodeURIComponent(id)}`),
    run: (id: string) => call<ProgramRun>('GET', `/v1/program-runs/${id}`),
    /** Creates a run of `scenarioId` with its example inputs (or `inputs`). */
    async createRun(
      scenarioId: string,
      options: { inputs?: Record<string, unknown>; session_id?: string } = {},
    ): Promise<ProgramRun> {
      const inputs = options.inputs ?? (await api.scenario(scenarioId)).example_inputs;
      return call<ProgramRun>('POST', '/v1/program-runs', {
        scenario_id: scenarioId,
        inputs,
        ...(options.session_id === undefined ? {} : { session_id: options.session_id }),
      });
    },
    decide: (
      id: string,
      step: string,
      decision: 'approve' | 'reject',
      extra: { note?: string; approver?: string } = {},
    ) => call<ProgramRun>('POST', `/v1/program-runs/${id}/approvals`, { step, decision, ...extra }),
    advanceToNextTimer: () =>
      call<{ now: string; timers_fired: number }>('POST', '/v1/test_helpers/clock/advance', {
        to: 'next_timer',
      }),
    advanceBy: (seconds: number) =>
      call<{ now: string; timers_fired: number }>('POST', '/v1/test_helpers/clock/advance', {
        seconds,
      }),
    requestAccess: (sessionId: string) =>
      call<unknown>('POST', '/v1/access-requests', {
        session_id: sessionId,
        name: 'Ana Tester',
        email: 'ana@example.com',
        company: 'Example Ltd',
        use_case: 'Browser tests',
      }),
    /**
     * Moves `id` until `until` holds: waits on handoffs and timers are moved by advancing
     * the test clock to the next timer, and approvals other than `stopAt` are approved
     * with this key. Fails after `timeoutMs`.
     */
    async drive(
      id: string,
      until: (run: ProgramRun) => boolean,
      timeoutMs = 20_000,
    ): Promise<ProgramRun> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const run = await api.run(id);
        if (until(run)) return run;
        if (['completed', 'faulted', 'cancelled'].includes(run.status) || Date.now() > deadline)
          throw new Error(`run ${id} did not get there: ${JSON.stringify(run)}`);
        if (run.awaiting?.kind === 'approval') {
          await api.decide(id, run.awaiting.step, 'approve');
        } else if (run.awaiting !== null) {
          await api.advanceToNextTimer().catch((error: unknown) => {
            // The answer may have fired on its own (the scheduler) since the run was read.
            if (!(error instanceof ApiProblem && error.body.code === 'no_pending_timer'))
              throw error;
          });
        } else {
          // `running` between waits: the next read sees where it went.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    },
  };
  return api;
}

/** The API client type. */
export type ApiClient = ReturnType<typeof apiClient>;
