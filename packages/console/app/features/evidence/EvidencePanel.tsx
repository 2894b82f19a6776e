// The run's evidence (inside the run page's "Evidence" region): request access when the run
// cannot export yet, then "Export and verify": the signed bundle, verified in the browser
// with @programrun/evidence and reported in exactly the words of `programrun verify`, and
// "Download bundle", the bytes the API sent.
import { useEffect, useState } from 'preact/hooks';
import type { ProgramRun } from '../../api/types.js';
import { useCan } from '../../auth/session.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { exportAndVerify, type ExportedEvidence } from './export-evidence.js';
import { RequestAccessForm } from './RequestAccessForm.js';
import '../features.css';

/** Props of {@link EvidencePanel}. */
export interface EvidencePanelProps {
  run: ProgramRun;
}

/** A blob: URL of `bytes` while the component shows it (revoked after). */
function useBlobUrl(bytes: Uint8Array<ArrayBuffer> | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (bytes === null) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(new Blob([bytes], { type: 'application/json' }));
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [bytes]);
  return url;
}

/** The evidence of a run. */
export function EvidencePanel({ run }: EvidencePanelProps) {
  const can = useCan();
  const [requested, setRequested] = useState(false);
  const [exported, setExported] = useState<ExportedEvidence | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const download = useBlobUrl(exported?.bytes ?? null);

  if (!can('evidence:export')) {
    return <p class="hint">Exporting evidence needs the evidence:export scope.</p>;
  }
  const exportable = run.evidence.exportable || requested;

  const exportEvidence = () => {
    setBusy(true);
    setError(null);
    setExported(null);
    exportAndVerify({ id: run.id, environment: run.livemode ? 'live' : 'test' }).then(
      (result) => {
        setExported(result);
        setBusy(false);
      },
      (failure: unknown) => {
        setError(failure);
        setBusy(false);
      },
    );
  };

  return (
    <div class="stack evidence">
      <p>
        Chain head: <code class="digest">{run.evidence.chain_head ?? '(no records yet)'}</code>
      </p>
      {exportable ? (
        requested ? (
          <p role="status" class="done">
            Access requested: evidence of this session can now be exported.
          </p>
        ) : null
      ) : run.session_id === null ? (
        <p class="hint">
          This run has no session id, so no access request can be linked to it: only runs created
          with a <code>session_id</code> can export evidence.
        </p>
      ) : (
        <RequestAccessForm sessionId={run.session_id} onRequested={() => setRequested(true)} />
      )}
      <div class="buttons">
        <button type="button" class="primary" disabled={busy} onClick={exportEvidence}>
          Export and verify
        </button>
        {exported !== null && download !== null ? (
          <a class="download" href={download} download={`${run.id}.evidence.json`}>
            Download bundle
          </a>
        ) : null}
      </div>
      <ErrorAlert error={error} />
      {/* Always present, so that what it comes to hold is announced. */}
      <div role="status" aria-label="Verification" class="verification-status">
        {busy ? <p>Exporting and verifying…</p> : null}
        {exported !== null ? (
          <pre
            tabIndex={0}
            class={exported.report.ok ? 'verification verified' : 'verification failed'}
          >
            {exported.report.lines.join('\n')}
          </pre>
        ) : null}
      </div>
    </div>
  );
}
