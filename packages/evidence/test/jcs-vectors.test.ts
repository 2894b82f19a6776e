import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalize, CanonicalJsonError } from '../src/canonical-json.js';
import { MAX_JSON_DEPTH, parseStrictJson, StrictJsonError } from '../src/strict-json.js';

const vector = (path: string): string =>
  readFileSync(new URL(`./vectors/jcs/${path}`, import.meta.url), 'utf8');
const files = readdirSync(new URL('./vectors/jcs/input/', import.meta.url)).sort();

function fromIeee754Hex(hexBits: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hexBits}`));
  return view.getFloat64(0);
}

describe('RFC 8785 vectors', () => {
  it.each(files)('canonicalizes %s byte for byte', (name) => {
    const output = canonicalize(JSON.parse(vector(`input/${name}`)));
    expect(output).toBe(vector(`output/${name}`));
    const hexBytes = Buffer.from(output, 'utf8').toString('hex');
    expect(hexBytes).toBe(
      vector(`outhex/${name.replace('.json', '.txt')}`)
        .replace(/\s+/g, '')
        .toLowerCase(),
    );
  });

  const numbers = JSON.parse(vector('rfc8785-appendix-b-numbers.json')) as {
    ieee754Hex: string;
    expected: string | null;
    comment?: string;
  }[];
  it.each(numbers.map((entry) => [entry.ieee754Hex, entry.expected, entry.comment ?? ''] as const))(
    'Appendix B %s → %s %s',
    (bits, expected) => {
      const value = fromIeee754Hex(bits);
      if (expected === null) expect(() => canonicalize(value)).toThrow(CanonicalJsonError);
      else expect(canonicalize(value)).toBe(expected);
    },
  );

  it('sorts keys by UTF-16 code units (§3.2.3)', () => {
    const sorting = JSON.parse(vector('sorting-rfc8785-3.2.3.json')) as {
      inputJsonText: string;
      expectedValueOrder: string[];
    };
    const output = canonicalize(JSON.parse(sorting.inputJsonText));
    // Read the order from the text: JS objects enumerate integer-like keys ("1") first.
    const positions = sorting.expectedValueOrder.map((value) =>
      output.indexOf(JSON.stringify(value)),
    );
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  const negative = JSON.parse(vector('negative-cases.json')) as {
    mustReject: { name: string; jsValue?: string; jsonText?: string }[];
    mustAcceptWithExactOutput: {
      name: string;
      jsValue?: string;
      jsonText?: string;
      ieee754Hex?: string;
      expected?: string;
      expectedUtf8Hex?: string;
    }[];
  };
  const jsValues: Record<string, unknown> = {
    NaN: Number.NaN,
    Infinity: Number.POSITIVE_INFINITY,
    '-Infinity': Number.NEGATIVE_INFINITY,
    '10n': 10n,
    '-0': -0,
  };

  it.each(negative.mustReject.map((entry) => [entry.name, entry] as const))(
    'rejects %s',
    (_name, entry) => {
      if (entry.jsValue !== undefined) {
        expect(() => canonicalize(jsValues[entry.jsValue!])).toThrow(CanonicalJsonError);
        return;
      }
      // JSON text: the strict parser refuses duplicates; canonicalize refuses what parses.
      const attempt = () => canonicalize(parseStrictJson(entry.jsonText!));
      expect(attempt).toThrow(
        entry.name.includes('duplicate') ? StrictJsonError : CanonicalJsonError,
      );
    },
  );

  it.each(negative.mustAcceptWithExactOutput.map((entry) => [entry.name, entry] as const))(
    'accepts %s exactly',
    (_name, entry) => {
      const value =
        entry.jsValue !== undefined
          ? jsValues[entry.jsValue]
          : entry.ieee754Hex !== undefined
            ? fromIeee754Hex(entry.ieee754Hex)
            : JSON.parse(entry.jsonText!);
      const output = canonicalize(value);
      if (entry.expected !== undefined) expect(output).toBe(entry.expected);
      if (entry.expectedUtf8Hex !== undefined)
        expect(Buffer.from(output, 'utf8').toString('hex')).toBe(entry.expectedUtf8Hex);
    },
  );
});

describe('parseStrictJson', () => {
  it.each([
    ['{"a":1,"a":2}', '(root)'],
    ['{"a":1,"\\u0061":2}', '(root)'],
    ['{"x":{"b":true,"b":false}}', '/x'],
    ['[{"k":1},{"k":1,"k":2}]', '/1'],
  ])('rejects duplicate keys in %s', (text, where) => {
    expect(() => parseStrictJson(text)).toThrow(new RegExp(where.replace(/[()/]/g, '\\$&')));
  });

  it('parses everything JSON.parse does, the same way', () => {
    for (const text of [
      '{"a":[1,{"b":"\\"}"},null]}',
      ' [ ] ',
      '"{\\"a\\":1}"',
      '{"a":{},"b":[],"c":{"a":1}}',
      '-1.5e3',
    ]) {
      expect(parseStrictJson(text)).toEqual(JSON.parse(text));
    }
    expect(() => parseStrictJson('{"a":')).toThrow(StrictJsonError);
  });

  it('says what is wrong and where, as data', () => {
    const caught = (text: string) => {
      try {
        parseStrictJson(text);
      } catch (error) {
        return error as StrictJsonError;
      }
      throw new Error('expected a StrictJsonError');
    };
    expect(caught('{"inputs":{"amount":"1.00","amount":"9.00"}}')).toMatchObject({
      problem: 'duplicate_key',
      pointer: '/inputs',
      key: 'amount',
    });
    expect(caught('{"a/b":{"x":1,"x":2}}').pointer).toBe('/a~1b');
    expect(caught('{').problem).toBe('not_json');
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels without overflowing the stack`, () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(parseStrictJson(nested(MAX_JSON_DEPTH))).toBeDefined();
    expect(() => parseStrictJson(nested(MAX_JSON_DEPTH + 1))).toThrow(/nested deeper/);
    expect(() => parseStrictJson(nested(50_000))).toThrow(StrictJsonError);
    expect(() => parseStrictJson('{"a":'.repeat(30_000) + '1' + '}'.repeat(30_000))).toThrow(
      StrictJsonError,
    );
  });
});
