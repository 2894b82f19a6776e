// The run's policy decision, rules and controls.
import type { ProgramRun } from '../../api/types.js';
import { Region } from '../../components/Region.js';
import { TableScroll } from '../../components/TableScroll.js';

/** The "Policy" region. */
export function PolicySection({ run }: { run: ProgramRun }) {
  const { policy } = run;
  return (
    <Region title="Policy">
      <p>
        Decision: <strong class={`decision decision-${policy.decision}`}>{policy.decision}</strong>
      </p>
      {policy.rules.length > 0 ? (
        <TableScroll label="Rules">
          <table>
            <caption>Rules</caption>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Effect</th>
                <th scope="col">Outcome</th>
                <th scope="col">Review</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {policy.rules.map((rule) => (
                <tr key={rule.id}>
                  <th scope="row">
                    <code>{rule.id}</code> {rule.description}
                  </th>
                  <td>{rule.effect}</td>
                  <td>{rule.outcome}</td>
                  <td>{rule.review ?? '—'}</td>
                  <td>{rule.message ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : (
        <p>No policy rules.</p>
      )}
      {policy.controls.length > 0 ? (
        <TableScroll label="Controls">
          <table>
            <caption>Controls</caption>
            <thead>
              <tr>
                <th scope="col">Control</th>
                <th scope="col">Category</th>
                <th scope="col">Step</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {policy.controls.map((control) => (
                <tr key={control.id}>
                  <th scope="row">{control.title}</th>
                  <td>{control.category}</td>
                  <td>
                    <code>{control.step}</code>
                  </td>
                  <td>{control.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </Region>
  );
}
