// What the signed-in principal may do to the run: decide an approval, cancel, and in test
// answer as the partner or move the test clock. Actions the scopes do not allow are not
// rendered; the API's refusals show in role="alert".
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { isFinalStatus, type ProgramRun } from '../../api/types.js';
import { useCan, useTestMode } from '../../auth/session.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { Region } from '../../components/Region.js';
import { advancedMessage, ClockControls } from '../../features/clock/ClockControls.js';

/** Props of {@link ActionsSection}. */
export interface ActionsSectionProps {
  run: ProgramRun;
  /** Called with the run an action answered. */
  onRun: (run: ProgramRun) => void;
}

/** Says what an action did, in the region's status line (it outlives the form). */
type Announce = (message: string) => void;

/** Runs an action: busy while it runs, its refusal kept for an alert, success announced. */
function useAction(
  announce: Announce,
): [unknown, boolean, (done: string, action: () => Promise<unknown>) => void] {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = (done: string, action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    announce('');
    action().then(
      () => {
        setBusy(false);
        if (done !== '') announce(done);
      },
      (failure: unknown) => {
        setError(failure);
        setBusy(false);
      },
    );
  };
  return [error, busy, run];
}

/** Props of each action form. */
interface FormProps extends ActionsSectionProps {
  announce: Announce;
}

const runPath = (run: ProgramRun, rest: string) =>
  `/v1/program-runs/${encodeURIComponent(run.id)}/${rest}`;

function ApprovalForm({ run, onRun, announce }: FormProps) {
  const [note, setNote] = useState('');
  const [error, busy, act] = useAction(announce);
  const step = run.awaiting!.step;
  const decide = (decision: 'approve' | 'reject') =>
    act(decision === 'approve' ? 'Approved.' : 'Rejected.', async () => {
      const body = { step, decision, ...(note.trim() !== '' ? { note: note.trim() } : {}) };
      onRun(await api.post<ProgramRun>(runPath(run, 'approvals'), body));
      setNote('');
    });
  return (
    <form
      class="action"
      aria-label="Decide the approval"
      onSubmit={(event) => event.preventDefault()}
    >
      <p>
        Decide <code>{step}</code>:
      </p>
      <div class="field">
        <label for="approval-note">Note</label>
        <input
          id="approval-note"
          type="text"
          value={note}
          maxLength={1000}
          onInput={(event) => setNote(event.currentTarget.value)}
        />
      </div>
      <div class="buttons">
        <button type="button" class="primary" disabled={busy} onClick={() => decide('approve')}>
          Approve
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => decide('reject')}>
          Reject
        </button>
      </div>
      <ErrorAlert error={error} />
    </form>
  );
}

function CancelForm({ run, onRun, announce }: FormProps) {
  const [confirming, setConfirming] = useState(false);
  const [error, busy, act] = useAction(announce);
  const confirm = () =>
    act('Cancel requested.', async () => {
      onRun(await api.post<ProgramRun>(runPath(run, 'cancel'), {}));
      setConfirming(false);
    });
  return (
    <div class="action">
      {confirming ? (
        <div role="group" aria-label="Confirm cancelling the run" class="confirm">
          <p id="cancel-question">Cancel {run.id}? Compensations run; this cannot be undone.</p>
          <div class="buttons">
            <button type="button" class="danger" disabled={busy} onClick={confirm}>
              Confirm cancel
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep the run
            </button>
          </div>
        </div>
      ) : (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Cancel run
        </button>
      )}
      <ErrorAlert error={error} />
    </div>
  );
}

function PartnerAnswerForm({ run, onRun, announce }: FormProps) {
  const [outcomeValue, setOutcomeValue] = useState('confirmed');
  const [reference, setReference] = useState('');
  const [data, setData] = useState('');
  const [error, busy, act] = useAction(announce);
  const step = run.awaiting!.step;
  const submit = (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    act('Answer posted.', async () => {
      let parsed: unknown;
      if (data.trim() !== '') {
        try {
          parsed = JSON.parse(data);
        } catch {
          throw new Error('Data (JSON) is not valid JSON.');
        }
      }
      const body = {
        outcome: outcomeValue,
        reference: reference.trim(),
        ...(parsed !== undefined ? { data: parsed } : {}),
      };
      onRun(await api.post<ProgramRun>(runPath(run, `handoffs/${encodeURIComponent(step)}`), body));
    });
  };
  return (
    <form class="action" aria-label="Partner answer" onSubmit={submit}>
      <h3>Partner answer</h3>
      <p>
        Answer <code>{step}</code> as <strong>{run.awaiting!.party ?? 'the partner'}</strong>.
      </p>
      <div class="field">
        <label for="answer-outcome">Outcome</label>
        <select
          id="answer-outcome"
          value={outcomeValue}
          onChange={(event) => setOutcomeValue(event.currentTarget.value)}
        >
          <option value="confirmed">confirmed</option>
          <option value="rejected">rejected</option>
          <option value="failed">failed</option>
        </select>
      </div>
      <div class="field">
        <label for="answer-reference">Reference</label>
        <input
          id="answer-reference"
          type="text"
          value={reference}
          onInput={(event) => setReference(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="answer-data">Data (JSON)</label>
        <textarea
          id="answer-data"
          rows={3}
          value={data}
          onInput={(event) => setData(event.currentTarget.value)}
        />
      </div>
      <button type="submit" disabled={busy}>
        Post answer
      </button>
      <ErrorAlert error={error} />
    </form>
  );
}

function ClockForm({ announce }: { announce: Announce }) {
  return (
    <div class="action" role="group" aria-label="Test clock">
      <h3>Test clock</h3>
      <ClockControls
        onStart={() => announce('')}
        onAdvanced={(clock) => announce(advancedMessage(clock))}
      />
    </div>
  );
}

/** The "Actions" region. */
export function ActionsSection({ run, onRun }: ActionsSectionProps) {
  const can = useCan();
  const [notice, setNotice] = useState('');
  const test = useTestMode();
  const awaiting = run.awaiting;
  const final = isFinalStatus(run.status);
  const approval =
    awaiting?.kind === 'approval' && can('approvals:decide', awaiting.approvers ?? []);
  const answer =
    test && awaiting?.kind === 'handoff' && can('handoffs:answer', awaiting.party ?? []);
  const cancel = !final && can('runs:write');
  const clock = test && can('runs:write');
  const none = !approval && !answer && !cancel && !clock;
  return (
    <Region title="Actions">
      {approval ? <ApprovalForm run={run} onRun={onRun} announce={setNotice} /> : null}
      {answer ? <PartnerAnswerForm run={run} onRun={onRun} announce={setNotice} /> : null}
      {cancel ? <CancelForm run={run} onRun={onRun} announce={setNotice} /> : null}
      {clock ? <ClockForm announce={setNotice} /> : null}
      {none ? (
        <p>
          No actions: {final ? `the run is ${run.status}.` : 'your key’s scopes allow none here.'}
        </p>
      ) : null}
      <p role="status" class="done">
        {notice}
      </p>
    </Region>
  );
}
