import { expect } from 'vitest';
import { EngineError } from '../src/index.js';

/** Awaits `promise`, expects it to reject with an EngineError of `code`, and returns the error. */
export async function expectEngineError(
  promise: Promise<unknown>,
  code: string,
): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EngineError);
  expect((error as EngineError).code).toBe(code);
  return error as EngineError;
}
