// The Lifecycle region's verdict on the chain, from real linked records.
import { linkRecord, type ChainLink, type Sha256Digest } from '@programrun/evidence';
import { describe, expect, it } from 'vitest';
import type { LifecycleRecord } from '../../app/api/types.js';
import { chainStatus } from '../../app/pages/run/chain-status.js';

function chain(length: number): LifecycleRecord[] {
  const records: LifecycleRecord[] = [];
  for (let sequence = 1; sequence <= length; sequence += 1) {
    type Record = ChainLink & Omit<LifecycleRecord, 'prev' | 'hash'>;
    const body = {
      id: `evt_${String(sequence).padStart(32, '0')}`,
      run_id: 'prun_1',
      sequence,
      type: 'program_run.created',
      stage: null,
      step: null,
      created: '2025-01-01T00:00:00.000Z',
      data: { n: sequence },
    };
    const prev = (records.at(-1)?.hash ?? null) as Sha256Digest | null;
    records.push(linkRecord<Record>(body, prev));
  }
  return records;
}

describe('chainStatus', () => {
  it('verifies a chain ending in the run’s head, and one read past it', () => {
    const records = chain(4);
    expect(chainStatus(records, records[3]!.hash, false)).toEqual({ kind: 'verified', length: 4 });
    expect(chainStatus(records, records[2]!.hash, false)).toEqual({ kind: 'verified', length: 3 });
    expect(chainStatus([], null, false)).toEqual({ kind: 'verified', length: 0 });
  });

  it('names the first record that does not hold', () => {
    const records = chain(5);
    const tampered = records.map((record) =>
      record.sequence === 3 ? { ...record, data: { n: 99 } } : record,
    );
    expect(chainStatus(tampered, records[4]!.hash, false)).toMatchObject({ kind: 'broken', at: 3 });
    const gap = records.filter((record) => record.sequence !== 2);
    expect(chainStatus(gap, records[4]!.hash, false)).toMatchObject({ kind: 'broken', at: 3 });
  });

  it('waits for records still being read, and reports a head never reached', () => {
    const records = chain(2);
    const head = chain(3)[2]!.hash;
    expect(chainStatus(records, head, true)).toEqual({ kind: 'pending' });
    expect(chainStatus(records, head, false)).toMatchObject({ kind: 'broken', at: 2 });
  });
});
