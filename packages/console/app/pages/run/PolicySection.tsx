// The run's policy decision, rules and controls.
import type { ProgramRun } from '../../api/types.js';
import { Region } from '../../components/Region.js';
import { CaptionedTable } from '../../components/CaptionedTable.js';

/** The "Policy" region. */
export function PolicySection({ run }: { run: ProgramRun }) {
  const { policy } = run;
  return (
    <Region title="Policy">
      <p>
        Decision: <strong class={`decision decision-${policy.decision}`}>{policy.decision}</strong>
      </p>
      {policy.rules.length > 0 ? (
        <CaptionedTable
          caption="Rules"
          columns={['Rule', 'Effect', 'Outcome', 'Review', 'Message']}
          rows={policy.rules}
          rowKey={(rule) => rule.id}
          cells={(rule) => [
            <>
              <code>{rule.id}</code> {rule.description}
            </>,
            rule.effect,
            rule.outcome,
            rule.review ?? '—',
            rule.message ?? '—',
          ]}
        />
      ) : (
        <p>No policy rules.</p>
      )}
      {policy.controls.length > 0 ? (
        <CaptionedTable
          caption="Controls"
          columns={['Control', 'Category', 'Step', 'Status']}
          rows={policy.controls}
          rowKey={(control) => control.id}
          cells={(control) => [
            control.title,
            control.category,
            <code>{control.step}</code>,
            control.status,
          ]}
        />
      ) : null}
    </Region>
  );
}
