import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkScenario,
  createEdgeCoverage,
  exploreEdges,
  formatCheckReport,
  formatCoverage,
  inputsArbitrary,
  loadCompiledScenario,
  runTrace,
  scenarioEdges,
  signalPlanArbitrary,
  traceEdges,
  type PlanAction,
  type SignalPlan,
} from '../src/index.js';
import { repositoryScenarios } from './scenarios.js';

const qr = await loadCompiledScenario(
  new URL('../../../scenarios/qr-merchant-settlement@v1.yaml', import.meta.url),
);
const HAPPY = { partnersAnswer: true, actions: [], drain: 'happy' } as const;

/** The two partner answers before the payer's approval (their simulated partners answer). */
const TO_APPROVAL: PlanAction[] = [{ kind: 'next' }, { kind: 'next' }];

/** A trace of the QR scenario's example inputs under `plan`. */
const qrTrace = (plan: SignalPlan, seed: string) =>
  runTrace(qr, qr.definition.example_inputs, plan, seed);

describe('scenarioEdges', () => {
  it("lists each step's ways out, each gate rule's outcomes and each compensation", () => {
    const edges = scenarioEdges(qr);
    const ids = edges.map((edge) => edge.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'payer_approval success',
        'payer_approval reject',
        'payer_approval timeout',
        'lock_fx_quote timeout',
        'route_scheme route bilateral_link',
        'route_scheme route multilateral_hub',
        'route_scheme no_route',
        'qr_intake rule cross_border pass',
        'qr_intake rule cross_border fail',
        'refund_payer compensation',
      ]),
    );
    // Every way out of every main step of the graph is an edge.
    const flow = [...qr.graph.steps.values()].flatMap((step) => step.outgoing);
    expect(edges.filter((edge) => edge.kind === 'flow')).toHaveLength(flow.length);
    expect(edges.find((edge) => edge.id === 'lock_fx_quote timeout')?.label).toMatch(
      /^lock_fx_quote: timeout → \w+$/,
    );
  });

  it('adds attempt 2 up to max_attempts for a step that bounds its re-entries', async () => {
    const supplier = await loadCompiledScenario(
      new URL('./fixtures/supplier-payout@v1.yaml', import.meta.url),
    );
    const bounded = [...supplier.graph.steps.values()].filter(
      (step) => 'max_attempts' in step.definition && step.definition.max_attempts !== undefined,
    );
    const attempts = scenarioEdges(supplier).filter((edge) => edge.kind === 'attempt');
    const expected = bounded.flatMap((step) => {
      const max = (step.definition as { max_attempts: number }).max_attempts;
      return Array.from({ length: max - 1 }, (_, index) => `${step.id} attempt ${index + 2}`);
    });
    expect(attempts.map((edge) => edge.id)).toEqual(expected);
  });
});

describe('traceEdges', () => {
  it('reads the happy path of a run from its records', async () => {
    const trace = await qrTrace(HAPPY, 'happy');
    expect(trace.run.status).toBe('completed');
    const taken = traceEdges(qr, trace.records);
    expect(taken).toEqual(
      new Set([
        ...[
          'qr_intake',
          'resolve_merchant_market',
          'resolve_payer_corridor',
          'resolve_settlement_boundary',
          'corridor_gate',
          'arm_scheme_call',
          'lock_fx_quote',
          'scheme_gate',
          'payer_approval',
          'debit_payer',
          'submit_to_scheme',
          'record_posting',
          'merchant_credit',
          'merchant_gate',
          'record_merchant_close',
          'confirm_net_settlement',
          'reconcile_settlement',
          'record_reconciliation',
        ].map((step) => `${step} success`),
        'route_scheme route bilateral_link',
        ...[
          'qr_intake rule merchant_market_supported',
          'qr_intake rule cross_border',
          'qr_intake rule qr_country_matches',
          'qr_intake rule qr_amount_matches',
          'corridor_gate rule corridor_live',
          'corridor_gate rule settles_in_local_currency',
          'scheme_gate rule merchant_active',
          'scheme_gate rule quote_for_merchant_amount',
          'scheme_gate rule payer_amount_at_rate',
          'scheme_gate rule payer_amount_within_cap',
          'merchant_gate rule merchant_credited_locally',
          'reconcile_settlement rule settlement_matches_payment',
        ].map((rule) => `${rule} pass`),
      ]),
    );
  });

  it('reads a rejected approval and a partner that never answers', async () => {
    const rejected = await qrTrace(
      {
        partnersAnswer: true,
        actions: [...TO_APPROVAL, { kind: 'decide', decision: 'reject', approver: 0 }],
      },
      'rejected',
    );
    expect(rejected.log.at(-1)).toBe('reject payer_approval: applied');
    expect(traceEdges(qr, rejected.records)).toContain('payer_approval reject');
    const silent = await qrTrace({ partnersAnswer: false, actions: [], drain: 'expire' }, 'silent');
    const taken = traceEdges(qr, silent.records);
    const firstHandoff = silent.records.find(
      (record) => record.type === 'program_run.handoff.timed_out',
    )?.step;
    expect(firstHandoff).toBeDefined();
    expect(taken).toContain(`${firstHandoff} timeout`);
  });

  it('reads a partner refusal after the pivot and the compensation it starts', async () => {
    const trace = await qrTrace(
      {
        partnersAnswer: true,
        actions: [
          ...TO_APPROVAL,
          { kind: 'decide', decision: 'approve', approver: 0 },
          { kind: 'next' },
          { kind: 'answer', outcome: 'rejected' },
        ],
      },
      'compensated',
    );
    const taken = traceEdges(qr, trace.records);
    expect(taken).toContain('debit_payer success');
    expect(taken).toContain('submit_to_scheme reject');
    expect(taken).toContain('refund_payer compensation');
  });

  it('names only edges the scenario has, on random plans of every catalogue scenario', async () => {
    for (const compiled of await repositoryScenarios()) {
      const known = new Set(scenarioEdges(compiled).map((edge) => edge.id));
      await fc.assert(
        fc.asyncProperty(
          inputsArbitrary(compiled),
          signalPlanArbitrary({ maxActions: 12 }),
          async (inputs, plan) => {
            const trace = await runTrace(compiled, inputs, plan, 'edges');
            for (const id of traceEdges(compiled, trace.records))
              expect(known, `${compiled.id}: ${id}`).toContain(id);
          },
        ),
        { numRuns: 25, seed: 7 },
      );
    }
  }, 60_000);
});

describe('edge coverage in a check', () => {
  it('counts the traces that took each edge and reports what no trace took', async () => {
    const report = await checkScenario(qr, {
      numRuns: 20,
      seed: 3,
      properties: ['termination'],
    });
    const { coverage } = report;
    expect(coverage.total).toBe(scenarioEdges(qr).length);
    expect(coverage.covered).toBe(coverage.edges.filter(({ hits }) => hits > 0).length);
    expect(coverage.covered).toBeGreaterThan(0);
    for (const { hits } of coverage.edges) expect(hits).toBeLessThanOrEqual(report.traces);
    const text = formatCheckReport(report);
    expect(text).toContain(`edges covered ${coverage.covered}/${coverage.total}`);
    for (const { edge } of coverage.edges.filter(({ hits }) => hits === 0))
      expect(text).toContain(`\n  ${edge.label}`);
  });

  it('prints every edge with its hits when asked for all', async () => {
    const coverage = createEdgeCoverage(qr);
    const trace = await qrTrace(HAPPY, 'happy');
    coverage.add(trace.records);
    coverage.add(trace.records);
    const report = coverage.report();
    const lines = formatCoverage(report, { all: true }).split('\n');
    expect(lines[0]).toBe(`edges covered ${report.covered}/${report.total}`);
    expect(lines).toHaveLength(report.total + 2);
    expect(lines).toContainEqual(expect.stringMatching(/^ +2 {2}payer_approval: success → /));
    expect(lines).toContainEqual(expect.stringMatching(/^ +0 {2}payer_approval: reject → /));
  });

  it('keeps unreachable edges out of the missed ones, and reports dead alternatives apart', async () => {
    const coverage = createEdgeCoverage(qr, {
      unreachable: new Map([['route_scheme no_route', 'no valid input takes it']]),
      dead: new Map([['route_scheme route multilateral_hub', 'no valid input selects it']]),
    });
    coverage.add((await qrTrace(HAPPY, 'happy')).records);
    const report = coverage.report();
    expect(report.reachable).toBe(report.total - 2);
    expect(report.missed).not.toContain('route_scheme no_route');
    expect(report.missed).not.toContain('route_scheme route multilateral_hub');
    expect(report.dead).toEqual(['route_scheme route multilateral_hub']);
    const text = formatCoverage(report);
    expect(text).toContain('route_scheme: no_route → fault (unreachable: no valid input takes it)');
    expect(text).toContain(
      'route_scheme: route multilateral_hub → arm_scheme_call (never selected: no valid input selects it)',
    );
  });
});

describe('exploreEdges', () => {
  /** The whole search of the QR scenario, run once for the tests that read it. */
  let whole: ReturnType<typeof exploreEdges> | undefined;
  const wholeSearch = () => (whole ??= exploreEdges(qr));

  it('finds, deterministically, cases for edges random plans rarely take', async () => {
    const first = await wholeSearch();
    const again = await exploreEdges(qr);
    expect(again).toEqual(first);
    const found = first.flatMap((found) => found.edges);
    expect(new Set(found).size).toBe(found.length);
    // A later handoff's deadline: reached only by answering the partners before it with
    // their data, then letting the deadline lapse.
    expect(found).toContain('merchant_credit timeout');
    const timeout = first.find((found) => found.edges.includes('merchant_credit timeout'))!;
    expect(timeout.plan.partnersAnswer).toBe(false);
    expect(timeout.plan.actions).toContainEqual({
      kind: 'answer',
      outcome: 'confirmed',
      data: 'simulated',
    });
    // Each case takes the edges it claims, when run as the checker runs it.
    for (const found of first.slice(0, 8)) {
      const trace = await runTrace(qr, found.inputs, found.plan, `seed-${found.seed}`);
      for (const edge of found.edges) expect(traceEdges(qr, trace.records)).toContain(edge);
    }
  });

  it('stops at the first trace stopAt picks, and returns its case first', async () => {
    let traces = 0;
    let seen = 0;
    const stopped = await exploreEdges(qr, {
      stopAt: (trace) => {
        traces += 1;
        // The first run the payer's approval lapsed in: a rare path, a few traces in.
        if (!trace.records.some((record) => record.type === 'program_run.approval.expired'))
          return false;
        seen = traces;
        return true;
      },
    });
    expect(seen).toBeGreaterThan(0);
    expect(traces).toBe(seen);
    const [first] = stopped;
    const trace = await runTrace(qr, first!.inputs, first!.plan, `seed-${first!.seed}`);
    expect(trace.records.map((record) => record.type)).toContain('program_run.approval.expired');
    // The search ended there: fewer cases than a whole search finds.
    expect(stopped.length).toBeLessThan((await wholeSearch()).length);
  });

  it('makes a check cover more edges in the same number of runs', async () => {
    const options = { numRuns: 40, seed: 9, properties: ['termination'] as const };
    const random = await checkScenario(qr, { ...options, directed: false });
    const directed = await checkScenario(qr, options);
    expect(directed.passed).toBe(true);
    expect(directed.coverage.covered).toBeGreaterThan(random.coverage.covered);
    expect(
      directed.coverage.edges.find(({ edge }) => edge.id === 'merchant_credit timeout')?.hits,
    ).toBeGreaterThan(0);
    // The directed cases take runs of the budget; they do not add to it.
    expect(directed.properties[0]!.runs).toBe(40);
  });
});
