// The run's hash-chained lifecycle records, verified in the browser.
import type { LifecycleRecord, ProgramRun } from '../../api/types.js';
import { Region } from '../../components/Region.js';
import { Time } from '../../components/Time.js';
import { chainStatus } from './chain-status.js';

/** Props of {@link LifecycleSection}. */
export interface LifecycleSectionProps {
  run: ProgramRun;
  records: LifecycleRecord[];
  loading: boolean;
}

function ChainLine({ run, records, loading }: LifecycleSectionProps) {
  const status = chainStatus(records, run.evidence.chain_head, loading);
  switch (status.kind) {
    case 'pending':
      return <p role="status">Verifying the chain…</p>;
    case 'verified':
      return (
        <p role="status" class="chain chain-ok">
          <strong>Chain verified</strong> ({status.length} record{status.length === 1 ? '' : 's'} up
          to head <code class="digest">{run.evidence.chain_head ?? 'none'}</code>)
        </p>
      );
    case 'broken':
      return (
        <p role="alert" class="chain chain-broken">
          <strong>Chain broken at record {status.at}</strong>: {status.reason}
        </p>
      );
  }
}

/** The "Lifecycle" region. */
export function LifecycleSection(props: LifecycleSectionProps) {
  const { records } = props;
  return (
    <Region title="Lifecycle">
      <ChainLine {...props} />
      <ol class="lifecycle">
        {records.map((record) => (
          <li key={record.sequence} class="record">
            <span class="record-sequence">{record.sequence}</span>{' '}
            <code class="record-type">{record.type}</code>{' '}
            {record.step !== null ? (
              <span class="record-step">
                step <code>{record.step}</code>
              </span>
            ) : null}{' '}
            <Time value={record.created} />
            <details>
              <summary>
                Data<span class="visually-hidden"> of record {record.sequence}</span>
              </summary>
              <pre>{JSON.stringify(record.data, null, 2)}</pre>
              <p class="hash">
                hash <code class="digest">{record.hash}</code>
              </p>
            </details>
          </li>
        ))}
      </ol>
    </Region>
  );
}
