// A failed call's message is the connector's (or the partner's) text: whatever it holds,
// the job's row and the attempt record must be storable, or the result of every call is
// lost until the step times out.
import { describe, expect, it } from 'vitest';
import { TransientConnectorError, type HandoffConnector } from '../../src/index.js';
import { classifyThrown } from '../../src/handoffs/call-connector.js';
import { createPayout, harness, jobsOf, live, recordsOf } from './harness.js';

const messageOf = (error: unknown): string => {
  const result = classifyThrown(error, false);
  if (result.kind !== 'transient') throw new Error(`expected transient, got ${result.kind}`);
  return result.error.message;
};

describe('the message a failed call keeps', () => {
  it('turns NUL and lone surrogates into U+FFFD', () => {
    expect(messageOf(new Error('bad\u0000gateway'))).toBe('bad\uFFFDgateway');
    expect(messageOf(new Error('half \ud83d of a pair'))).toBe('half \uFFFD of a pair');
    expect(messageOf('thrown \udc00 text')).toBe('thrown \uFFFD text');
  });

  it('never ends in half a surrogate pair when cut at 1,000 units', () => {
    const message = messageOf(new Error(`${'x'.repeat(999)}\ud83d\ude00 and more`));
    expect(message).toHaveLength(1_000);
    expect(message.isWellFormed()).toBe(true);
    expect(message.endsWith('\uFFFD')).toBe(true);
  });

  it("is recorded and retried when a partner's error text holds NUL", async () => {
    let calls = 0;
    const bank: HandoffConnector = () => {
      calls += 1;
      if (calls === 1)
        return Promise.reject(new TransientConnectorError('http_5xx', 'upstream \u0000 down', 503));
      return Promise.resolve({ outcome: 'confirmed', reference: 'PAY-1' });
    };
    const { engine, store, advance } = harness({
      connectors: { bank },
      handoffs: { retry: { initialMs: 1_000, factor: 2, maxMs: 1_000 } },
    });
    const run = await createPayout(engine);

    expect(await engine.runDueHandoffs('live')).toBe(1);
    const [queued] = await jobsOf(store, run.id);
    expect(queued).toMatchObject({ status: 'queued', calls: 1 });
    expect(queued!.last_error?.message).toBe('upstream \uFFFD down');
    const [attempted] = await recordsOf(engine, live, run.id, 'program_run.handoff.attempted');
    expect(attempted!.data).toMatchObject({ outcome: 'retrying' });

    advance(1_000);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    expect((await engine.getRun(live, run.id)).status).toBe('completed');
  });
});
