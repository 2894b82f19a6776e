import type { EvidenceBundle } from './evidence-bundle.js';
import type { EvidenceVerification } from './verify-evidence.js';

/** What {@link verificationReport} says about one verification, line by line. */
export interface VerificationReport {
  /** Whether every check passed (the same as the verification's `ok`). */
  readonly ok: boolean;
  /**
   * When verified: one `✓ <check> <detail>` line per check, a blank line, the run's summary
   * (run, scenario, status, times, parties, stages), a blank line and `Evidence verified.`.
   * When not: the single line `verification failed at <check>: <detail>`, and nothing read
   * from the bundle.
   */
  readonly lines: readonly string[];
}

const time = (value: string | null): string => value ?? '—';
const text = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** The human summary of a verified bundle (never of one that failed a check). */
function summary(bundle: EvidenceBundle): string[] {
  const { run } = bundle;
  return [
    '',
    `Run       ${run.id} (${run.livemode ? 'live' : 'test'})`,
    `Scenario  ${run.scenario_id}  ${run.scenario_digest}`,
    `Status    ${run.status}${run.outcome ? ` — ${text(run.outcome.reason)}${run.outcome.step ? ` at ${text(run.outcome.step)}` : ''}` : ''}`,
    `Created   ${run.created_at}   completed ${time(run.completed_at)}`,
    '',
    'Parties',
    ...bundle.parties.map(
      (party) =>
        `  ${party.id.padEnd(24)} ${party.role.padEnd(16)} ${party.name} (${party.status})`,
    ),
    '',
    'Stages',
    ...bundle.stages.map(
      (stage) =>
        `  ${stage.id.padEnd(24)} ${stage.status.padEnd(10)} ${time(stage.started_at)} → ${time(stage.completed_at)}`,
    ),
  ];
}

/**
 * The words of a {@link verifyEvidence} result, exactly as `programrun verify` prints them
 * and the run console shows them: each passed check, the run's summary and
 * `Evidence verified.`; or, when a check failed, only the one line naming the first broken
 * link (what passed before it was read from a bundle that did not verify, so none of it is
 * repeated). A failure detail spanning lines is folded onto that one line.
 *
 * @example
 * ```ts
 * const result = verifyEvidence(bundleText, jwks, { expect: { runId: 'prun_4f1c2d3e4f5a6b7c8d9e0f1a' } });
 * const report = verificationReport(result);
 * for (const line of report.lines) (report.ok ? console.log : console.error)(line);
 * ```
 */
export function verificationReport(result: EvidenceVerification): VerificationReport {
  if (!result.ok || !result.bundle) {
    const reason = `${result.failure?.name ?? 'an early check'}: ${result.failure?.detail ?? 'unreadable'}`;
    return { ok: false, lines: [`verification failed at ${reason.replace(/\s*\n\s*/g, ' ')}`] };
  }
  return {
    ok: true,
    lines: [
      ...result.checks.map((check) => `✓ ${check.name.padEnd(10)} ${check.detail}`),
      ...summary(result.bundle),
      '',
      'Evidence verified.',
    ],
  };
}
