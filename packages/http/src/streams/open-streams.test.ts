import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/principal.js';
import { HttpError } from '../errors/http-error.js';
import { createOpenStreams, type OpenedStream } from './open-streams.js';
import { DEFAULT_STREAM_POLICY } from './stream-policy.js';

const principal = (credentialId: string, account = 'acct_one'): Principal => ({
  account,
  environment: 'test',
  credentialId,
  actor: credentialId,
  scopes: [],
});

/** A stream that only records being ended; `release` is what the registry handed it. */
function fakeStream(opened: { release?: () => void; ended: number }) {
  return (release: () => void): OpenedStream => {
    opened.release = release;
    return {
      stream: new ReadableStream(),
      end: () => {
        opened.ended += 1;
        release();
      },
    };
  };
}

describe('createOpenStreams', () => {
  it('holds maxPerCredential streams per credential, refusing the next until one is released', () => {
    let now = 1_000_000;
    const streams = createOpenStreams({ ...DEFAULT_STREAM_POLICY, maxPerCredential: 2 }, () => now);
    const first: { release?: () => void; ended: number } = { ended: 0 };
    streams.open(principal('key_a'), fakeStream(first));
    now += 60_000;
    streams.open(principal('key_a'), fakeStream({ ended: 0 }));
    let refusal: unknown;
    try {
      streams.open(principal('key_a'), fakeStream({ ended: 0 }));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({
      code: 'too_many_streams',
      // The oldest ends by itself 4 minutes from now.
      headers: { 'retry-after': '240' },
    });
    // Other credentials, and the same credential id in another account, have their own.
    streams.open(principal('key_b'), fakeStream({ ended: 0 }));
    streams.open(principal('key_a', 'acct_two'), fakeStream({ ended: 0 }));
    first.release!();
    first.release!();
    streams.open(principal('key_a'), fakeStream({ ended: 0 }));
    expect(() => streams.open(principal('key_a'), fakeStream({ ended: 0 }))).toThrow(HttpError);
  });

  it('ends every open stream on closeAll, and each opened later at once', () => {
    const streams = createOpenStreams(DEFAULT_STREAM_POLICY);
    const open = [{ ended: 0 }, { ended: 0 }];
    for (const opened of open) streams.open(principal('key_a'), fakeStream(opened));
    streams.closeAll();
    expect(open.map((opened) => opened.ended)).toEqual([1, 1]);
    const late = { ended: 0 };
    streams.open(principal('key_a'), fakeStream(late));
    expect(late.ended).toBe(1);
    // Every slot is free again.
    for (let index = 0; index < DEFAULT_STREAM_POLICY.maxPerCredential; index += 1)
      streams.open(principal('key_a'), fakeStream({ ended: 0 }));
  });

  it('frees the slot of a stream that ended while it was being opened (a final run)', () => {
    const streams = createOpenStreams({ ...DEFAULT_STREAM_POLICY, maxPerCredential: 1 });
    streams.open(principal('key_a'), (release) => {
      release();
      return { stream: new ReadableStream(), end: () => undefined };
    });
    expect(() => streams.open(principal('key_a'), fakeStream({ ended: 0 }))).not.toThrow();
  });
});
