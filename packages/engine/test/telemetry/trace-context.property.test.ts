// The W3C `traceparent` a run keeps and sends: what formatTraceparent writes,
// parseTraceparent reads back; malformed headers are ignored (undefined), never thrown on.
import { isSpanContextValid, TraceFlags, type SpanContext } from '@opentelemetry/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTraceparent, parseTraceparent } from '../../src/index.js';

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`));
const traceId = hex(32).filter((id) => !/^0+$/.test(id));
const spanId = hex(16).filter((id) => !/^0+$/.test(id));
const flags = fc.integer({ min: 0, max: 255 });
const spanContext = fc.record({ traceId, spanId, traceFlags: flags });
const flagsHex = (value: number) => value.toString(16).padStart(2, '0');

describe('traceparent', () => {
  it('reads back what it writes: ids and the sampled flag', () => {
    fc.assert(
      fc.property(spanContext, (context: SpanContext) => {
        const header = formatTraceparent(context);
        expect(header).toBe(
          `00-${context.traceId}-${context.spanId}-${flagsHex(context.traceFlags)}`,
        );
        expect(parseTraceparent(header)).toEqual({
          traceId: context.traceId,
          spanId: context.spanId,
          traceFlags: context.traceFlags & TraceFlags.SAMPLED,
          isRemote: true,
        });
      }),
    );
  });

  it('writes back a version 00 header it read, byte for byte (flags 00 and 01)', () => {
    fc.assert(
      fc.property(traceId, spanId, fc.constantFrom('00', '01'), (trace, span, sampled) => {
        const header = `00-${trace}-${span}-${sampled}`;
        expect(formatTraceparent(parseTraceparent(header))).toBe(header);
      }),
    );
  });

  it('keeps the tracestate it is given', () => {
    const parsed = parseTraceparent(
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      'vendor=abc,other=1',
    );
    expect(parsed?.traceState?.get('vendor')).toBe('abc');
    expect(parsed?.traceState?.serialize()).toBe('vendor=abc,other=1');
  });

  it('reads a later version by the fields it shares with 00', () => {
    fc.assert(
      fc.property(
        hex(2).filter((version) => version !== '00' && version !== 'ff'),
        traceId,
        spanId,
        fc.stringMatching(/^(-[0-9a-z]{1,8}){0,3}$/),
        (version, trace, span, rest) => {
          const parsed = parseTraceparent(`${version}-${trace}-${span}-01${rest}`);
          expect(parsed).toMatchObject({ traceId: trace, spanId: span, traceFlags: 1 });
        },
      ),
    );
  });

  it('ignores malformed headers', () => {
    const valid = { trace: '4bf92f3577b34da6a3ce929d0e0e4736', span: '00f067aa0ba902b7' };
    const malformed = [
      undefined,
      null,
      '',
      `ff-${valid.trace}-${valid.span}-01`, // version ff is invalid
      `00-${'0'.repeat(32)}-${valid.span}-01`, // all-zero trace id
      `00-${valid.trace}-${'0'.repeat(16)}-01`, // all-zero span id
      `00-${valid.trace.toUpperCase()}-${valid.span}-01`, // upper case
      `00-${valid.trace}-${valid.span}-01-extra`, // version 00 has exactly four fields
      `00-${valid.trace.slice(1)}-${valid.span}-01`,
      `00-${valid.trace}-${valid.span}0-01`,
      `00-${valid.trace}-${valid.span}-1`,
      `00_${valid.trace}_${valid.span}_01`,
      `0-${valid.trace}-${valid.span}-01`,
      `00-${valid.trace}-${valid.span}`,
      `00-${valid.trace.slice(0, 31)}g-${valid.span}-01`,
    ];
    for (const header of malformed) expect(parseTraceparent(header)).toBeUndefined();
  });

  it('never throws, and reads only valid span contexts', () => {
    const noisy = fc.oneof(
      fc.string(),
      fc
        .tuple(hex(2), hex(32), hex(16), hex(2), fc.string({ maxLength: 4 }))
        .map((parts) => parts.join('-')),
      fc
        .tuple(fc.string({ maxLength: 3 }), traceId, spanId, fc.string({ maxLength: 3 }))
        .map((parts) => parts.join('-')),
    );
    fc.assert(
      fc.property(noisy, (header) => {
        const parsed = parseTraceparent(header);
        if (parsed === undefined) return;
        expect(isSpanContextValid(parsed)).toBe(true);
        expect(parsed.isRemote).toBe(true);
        expect(formatTraceparent(parsed)).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
      }),
    );
  });

  it('writes nothing for an invalid or missing span context', () => {
    expect(formatTraceparent(undefined)).toBeNull();
    expect(
      formatTraceparent({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 1 }),
    ).toBeNull();
  });
});
