// The run's operating posture: environment, track, execution, activation, parties, routes.
import type { ProgramRun } from '../../api/types.js';
import { Region } from '../../components/Region.js';
import { TableScroll } from '../../components/TableScroll.js';

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
        <TableScroll label="Parties">
          <table>
            <caption>Parties</caption>
            <thead>
              <tr>
                <th scope="col">Party</th>
                <th scope="col">Role</th>
                <th scope="col">Kind</th>
                <th scope="col">Status</th>
                <th scope="col">Steps</th>
              </tr>
            </thead>
            <tbody>
              {posture.parties.map((party) => (
                <tr key={party.id}>
                  <th scope="row">
                    {party.name} <code>{party.id}</code>
                  </th>
                  <td>{party.role}</td>
                  <td>{party.kind}</td>
                  <td>{party.status}</td>
                  <td>{party.steps.join(', ') || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {posture.routes.length > 0 ? (
        <TableScroll label="Routes">
          <table>
            <caption>Routes</caption>
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col">Selected</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {posture.routes.map((route) => (
                <tr key={route.step}>
                  <th scope="row">
                    <code>{route.step}</code>
                  </th>
                  <td>{route.selected ?? 'not yet'}</td>
                  <td>{route.reason ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </Region>
  );
}
