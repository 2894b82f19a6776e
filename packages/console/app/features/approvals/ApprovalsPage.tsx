// "Approvals": every approval the account's runs wait on, across runs, refreshed every
// 2 s and after each decision. The principal decides the rows its scopes allow; the API
// records who decided (the signed-in principal) and its refusals show in role="alert".
import { useCallback, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { useRefreshing } from '../../api/use-refreshing.js';
import type { ListPage, ProgramRun } from '../../api/types.js';
import { useSession } from '../../auth/session.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { Time } from '../../components/Time.js';
import { href, Link } from '../../routing/navigation.js';
import {
  allPages,
  pendingApprovals,
  pendingQuery,
  type PendingApproval,
} from './pending-approvals.js';
import '../features.css';
import { TableScroll } from '../../components/TableScroll.js';

/** How often the list is read again. */
const REFRESH_MS = 2000;

type Decision = 'approve' | 'reject';

/** Props of {@link ApprovalRow}. */
interface ApprovalRowProps {
  row: PendingApproval;
  onDecided: (row: PendingApproval, decision: Decision) => void;
}

function Decisions({ row }: { row: PendingApproval }) {
  if (row.decisions.length === 0) return <>none yet</>;
  return (
    <ul class="decisions">
      {row.decisions.map((decision) => (
        <li key={`${decision.actor}-${decision.at}`}>
          {decision.actor}
          {decision.label !== null ? ` (${decision.label})` : ''}: {decision.decision}
          {decision.note !== null ? <q class="note">{decision.note}</q> : null}
        </li>
      ))}
    </ul>
  );
}

function ApprovalRow({ row, onDecided }: ApprovalRowProps) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const decide = (decision: Decision) => {
    setBusy(true);
    setError(null);
    const body = {
      step: row.step,
      decision,
      ...(note.trim() !== '' ? { note: note.trim() } : {}),
    };
    api.post<ProgramRun>(`/v1/program-runs/${encodeURIComponent(row.runId)}/approvals`, body).then(
      () => {
        setBusy(false);
        setNote('');
        onDecided(row, decision);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
      },
    );
  };
  return (
    <tr>
      <th scope="row">
        <Link href={href({ name: 'run', id: row.runId })}>{row.runId}</Link>
      </th>
      <td>{row.scenarioId}</td>
      <td>
        <code>{row.step}</code>
      </td>
      <td>{row.approvers.length > 0 ? row.approvers.join(', ') : '—'}</td>
      <td>{row.quorum}</td>
      <td>
        <Decisions row={row} />
      </td>
      <td>
        <Time value={row.deadline} />
      </td>
      <td>
        {row.mayDecide ? (
          <div class="stack">
            <input
              type="text"
              aria-label={`Note ${row.runId}`}
              placeholder="Note"
              maxLength={2000}
              value={note}
              onInput={(event) => setNote(event.currentTarget.value)}
            />
            <div class="buttons">
              <button
                type="button"
                class="primary"
                aria-label={`Approve ${row.runId}`}
                disabled={busy}
                onClick={() => decide('approve')}
              >
                Approve
              </button>
              <button
                type="button"
                class="danger"
                aria-label={`Reject ${row.runId}`}
                disabled={busy}
                onClick={() => decide('reject')}
              >
                Reject
              </button>
            </div>
            <ErrorAlert error={error} />
          </div>
        ) : (
          <span class="hint">Not one of your approvals</span>
        )}
      </td>
    </tr>
  );
}

/** The Approvals page. */
export function ApprovalsPage() {
  const { principal } = useSession();
  const [announcement, setAnnouncement] = useState('');
  const read = useCallback(
    () =>
      allPages((after) =>
        api.get<ListPage<ProgramRun>>('/v1/program-runs', pendingQuery(after)),
      ).then((runs) => pendingApprovals(runs, principal.scopes)),
    [principal.scopes],
  );
  const { value: rows, error, reload: load } = useRefreshing(read, REFRESH_MS);

  const onDecided = (row: PendingApproval, decision: Decision) => {
    setAnnouncement(
      `${decision === 'approve' ? 'Approved' : 'Rejected'} ${row.step} of ${row.runId}.`,
    );
    load();
  };

  return (
    <>
      <h1>Approvals</h1>
      <p class="hint">
        Every approval your account's runs wait on, refreshed every 2 seconds. Decisions are
        recorded as {principal.actor}.
      </p>
      <p role="status" class="done">
        {announcement}
      </p>
      <ErrorAlert error={error} />
      {rows === null ? (
        error === null ? (
          <p role="status">Loading the approvals…</p>
        ) : null
      ) : rows.length === 0 ? (
        <p>No run waits on an approval.</p>
      ) : (
        <TableScroll label="Pending approvals">
          <table class="approvals">
            <caption>Pending approvals ({rows.length})</caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Scenario</th>
                <th scope="col">Step</th>
                <th scope="col">Approvers</th>
                <th scope="col">Quorum</th>
                <th scope="col">Decided</th>
                <th scope="col">Expires</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <ApprovalRow key={`${row.runId}-${row.step}`} row={row} onDecided={onDecided} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
