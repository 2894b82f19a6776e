// The SQL store counts a transaction's statements (BEGIN and COMMIT included) and sets the
// count on the active span at commit, as `programrun.store.statements`; without a recording
// span it counts nothing.
import {
  context,
  ROOT_CONTEXT,
  trace,
  type AttributeValue,
  type Context,
  type ContextManager,
  type Span,
} from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTRIBUTES, type StoredRun } from '@programrun/engine';
import { usePGliteSchemas } from './support/pglite-schemas.js';

/** Enough of a context manager for a store called synchronously inside `context.with`. */
class StackContextManager implements ContextManager {
  private current: Context = ROOT_CONTEXT;
  active(): Context {
    return this.current;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    active: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const previous = this.current;
    this.current = active;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = previous;
    }
  }
  bind<T>(_context: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.current = ROOT_CONTEXT;
    return this;
  }
}

/** A span that records its attributes (or records nothing). */
function fakeSpan(recording = true): Span & { readonly attributes: Record<string, unknown> } {
  const attributes: Record<string, AttributeValue> = {};
  const span = {
    attributes,
    isRecording: () => recording,
    setAttribute(key: string, value: AttributeValue) {
      attributes[key] = value;
      return span;
    },
    spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 }),
  };
  return span as unknown as Span & { readonly attributes: Record<string, unknown> };
}

const freshStore = usePGliteSchemas('statements');
const scope = { account: 'acct_a', environment: 'test' } as const;
const run = {
  id: 'prun_1',
  ...scope,
  version: 1,
  scenario_id: 'wallet-delivery@v1',
  status: 'waiting',
  created_at: '2026-01-01T00:00:00.000Z',
  idempotency_key: null,
  snapshot: null,
  last_sequence: 0,
  record: { id: 'prun_1' },
} as unknown as StoredRun;

beforeAll(() => {
  context.setGlobalContextManager(new StackContextManager());
});
afterAll(() => {
  context.disable();
});

describe('statement counts', () => {
  it('sets the statements of a committed transaction on the active span', async () => {
    const store = await freshStore();
    try {
      const span = fakeSpan();
      await context.with(trace.setSpan(context.active(), span), () =>
        store.transaction(async (tx) => {
          await tx.insertRun(run);
          await tx.getRun(scope, run.id);
        }),
      );
      // BEGIN, INSERT, SELECT, COMMIT.
      expect(span.attributes).toEqual({ [ATTRIBUTES.storeStatements]: 4 });
    } finally {
      await store.close();
    }
  });

  it('sets nothing for a transaction that rolled back, or a span that does not record', async () => {
    const store = await freshStore();
    try {
      const span = fakeSpan();
      await expect(
        context.with(trace.setSpan(context.active(), span), () =>
          store.transaction(async (tx) => {
            await tx.insertRun(run);
            throw new Error('rolled back');
          }),
        ),
      ).rejects.toThrow('rolled back');
      expect(span.attributes).toEqual({});

      const quiet = fakeSpan(false);
      await context.with(trace.setSpan(context.active(), quiet), () =>
        store.transaction((tx) => tx.insertRun(run)),
      );
      expect(quiet.attributes).toEqual({});
    } finally {
      await store.close();
    }
  });
});
