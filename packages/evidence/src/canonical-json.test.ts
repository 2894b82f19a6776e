import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalize as referenceCanonicalize } from 'json-canonicalize';
import { canonicalize, CanonicalJsonError } from './canonical-json.js';

describe('canonicalize', () => {
  it('sorts keys by UTF-16 code units and uses ECMAScript number form (RFC 8785 §3.2)', () => {
    // RFC 8785 §3.2.2/3.2.3 and Appendix B facts, restated.
    expect(canonicalize({ '9': 0, '10': 0, a: 0, A: 0 })).toBe('{"10":0,"9":0,"A":0,"a":0}');
    expect(canonicalize({ numbers: [333333333.3333333, 1e30, 4.5, 0.002, 1e-27] })).toBe(
      '{"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27]}',
    );
    expect(canonicalize(-0)).toBe('0');
    expect(canonicalize(9007199254740994)).toBe('9007199254740994');
    expect(canonicalize({ '\u20ac': 1, '\r': 2, '\ud83d\ude00': 3, '\u0080': 4 })).toBe(
      '{"\\r":2,"\u0080":4,"\u20ac":1,"\ud83d\ude00":3}',
    );
    expect(canonicalize({ k: 'A\u030a' })).toBe('{"k":"A\u030a"}');
  });

  it.each([
    ['NaN', Number.NaN, ''],
    ['Infinity', Number.POSITIVE_INFINITY, ''],
    ['BigInt', { amount: 10n }, '/amount'],
    ['undefined member', { a: undefined }, '/a'],
    ['lone high surrogate', { a: '\ud800' }, '/a'],
    ['lone low surrogate in key', { '\udead': 1 }, '/\udead'],
    ['Date', { at: new Date(0) }, '/at'],
    ['toJSON', { value: { toJSON: () => 1 } }, '/value'],
    ['class instance', [new (class Money {})()], '/0'],
    ['function', { f: () => 1 }, '/f'],
    // eslint-disable-next-line no-sparse-arrays
    ['array hole', { list: [1, , 3] }, '/list/1'],
  ])('rejects %s at its JSON pointer', (_name, value, pointer) => {
    const attempt = () => canonicalize(value);
    expect(attempt).toThrow(CanonicalJsonError);
    try {
      attempt();
    } catch (error) {
      expect((error as CanonicalJsonError).pointer).toBe(pointer);
      expect((error as CanonicalJsonError).code).toBe('canonical_json_invalid');
    }
  });

  it('writes exactly what json-canonicalize writes for every JSON value', () => {
    // json-canonicalize (the reference implementation it replaced) is lenient where this is
    // strict; on the values both accept, every byte must agree.
    const unicodeJson = fc.jsonValue({ stringUnit: 'binary', maxDepth: 6 });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), unicodeJson), (value) => {
        expect(canonicalize(value)).toBe(referenceCanonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent through a parse round trip', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const once = canonicalize(value);
        expect(canonicalize(JSON.parse(once))).toBe(once);
      }),
    );
  });

  it('does not depend on key insertion order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalize(reversed)).toBe(canonicalize(record));
      }),
    );
  });
});
