import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256Digest } from './digest.js';
import { linkRecord, verifyChain, assertChain, type ChainLink } from './hash-chain.js';

interface TestRecord extends ChainLink {
  readonly type: string;
  readonly data: Record<string, string>;
}

function buildChain(types: readonly string[]): TestRecord[] {
  const records: TestRecord[] = [];
  for (const [index, type] of types.entries()) {
    const prev = records.at(-1)?.hash ?? null;
    records.push(
      linkRecord<TestRecord>({ sequence: index + 1, type, data: { n: String(index) } }, prev),
    );
  }
  return records;
}

describe('sha256Digest', () => {
  it('matches the FIPS 180-2 "abc" vector', () => {
    expect(sha256Digest('abc')).toBe(
      'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('hash chain', () => {
  const types = fc.array(fc.string({ minLength: 1, maxLength: 12 }), {
    minLength: 2,
    maxLength: 12,
  });

  it('verifies a chain it built and reports the head', () => {
    fc.assert(
      fc.property(types, (names) => {
        const chain = buildChain(names);
        expect(verifyChain(chain)).toEqual({
          ok: true,
          head: chain.at(-1)!.hash,
          length: chain.length,
        });
        expect(assertChain(chain, { expectedHead: chain.at(-1)!.hash })).toBe(chain.at(-1)!.hash);
      }),
    );
  });

  it('fails on any altered field, removal or reordering, naming the first broken record', () => {
    fc.assert(
      fc.property(
        types,
        fc.nat(),
        fc.constantFrom('alter', 'remove', 'swap'),
        (names, pick, change) => {
          const chain: TestRecord[] = buildChain(names);
          const head = chain.at(-1)!.hash;
          const index = pick % chain.length;
          let firstBroken = index;
          if (change === 'alter') {
            chain[index] = { ...chain[index]!, data: { n: 'tampered' } };
          } else if (change === 'remove') {
            chain.splice(index, 1);
          } else {
            const other = (index + 1) % chain.length;
            [chain[index], chain[other]] = [chain[other]!, chain[index]!];
            firstBroken = Math.min(index, other);
          }
          const result = verifyChain(chain, { expectedHead: head });
          expect(result.ok).toBe(false);
          // A removed last record shows as a head mismatch just past the end.
          if (!result.ok) expect(result.index).toBe(firstBroken);
        },
      ),
    );
  });
});
