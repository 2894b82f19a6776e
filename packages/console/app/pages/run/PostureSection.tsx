// The run's operating posture: environment, track, execution, activation, parties, routes.
import type { ProgramRun } from '../../api/types.js';
import { Region } from '../../components/Region.js';
import { CaptionedTable } from '../../components/CaptionedTable.js';

/** The "Posture" region. */
export function PostureSection({ run }: { run: ProgramRun }) {
  const { posture } = run;
  return (
    <Region title="Posture">
      <dl class="facts">
        <dt>Environment</dt>
        <dd>{posture.environment}</dd>
        <dt>Asset track</dt>
        <dd>{posture.asset_track}</dd>
        <dt>Execution</dt>
        <dd>{posture.execution}</dd>
        <dt>Activation</dt>
        <dd>
          {posture.activation.status}
          {posture.activation.reference !== null ? ` (${posture.activation.reference})` : ''}
        </dd>
      </dl>
      {posture.parties.length > 0 ? (
        <CaptionedTable
          caption="Parties"
          columns={['Party', 'Role', 'Kind', 'Status', 'Steps']}
          rows={posture.parties}
          rowKey={(party) => party.id}
          cells={(party) => [
            <>
              {party.name} <code>{party.id}</code>
            </>,
            party.role,
            party.kind,
            party.status,
            party.steps.join(', ') || '—',
          ]}
        />
      ) : null}
      {posture.routes.length > 0 ? (
        <CaptionedTable
          caption="Routes"
          columns={['Step', 'Selected', 'Why']}
          rows={posture.routes}
          rowKey={(route) => route.step}
          cells={(route) => [
            <code>{route.step}</code>,
            route.selected ?? 'not yet',
            route.reason ?? '—',
          ]}
        />
      ) : null}
    </Region>
  );
}
