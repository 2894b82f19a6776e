import { firstUnstorableArgument, UNSTORABLE_MESSAGES } from './storable-values.js';
import { StoreError } from './store-error.js';
import type { TransitionWrite } from './transition-spec.js';

/**
 * The arguments an operation is checked by: its own, except a transition's write, whose
 * parts are checked as the operations writing them one by one would check theirs (rows of
 * a list with integer columns in range).
 */
const checkedArguments = (name: string, args: readonly unknown[]): readonly unknown[] => {
  if (name !== 'writeTransition') return args;
  const write = args[0] as TransitionWrite;
  return [
    write.scope,
    write.run,
    write.expectedVersion,
    write.records,
    write.deliveriesDueAt,
    write.scheduleTimers,
    write.cancelTimers,
    write.firedTimer,
    write.closeHandoffJobs,
    write.insertHandoffJobs,
    write.settleHandoffJob,
  ];
};

/**
 * A transaction whose every operation first refuses arguments that no store could keep
 * alike, with an `unstorable_value` {@link StoreError} naming the operation, the argument
 * and the place: a text with U+0000 or an unpaired surrogate (anywhere, documents and keys
 * included), a number that is not finite, an integer column beyond its SQL range. The
 * memory and SQL stores both guard their transactions with it, so they refuse exactly the
 * same values instead of one storing what the other cannot (or silently rewrites).
 *
 * @example
 * ```ts
 * const guarded = guardStoreTransaction(tables);
 * await guarded.getRun({ account: 'acct_a', environment: 'test' }, 'prun_\u0000');
 * // rejects: StoreError unstorable_value "getRun: argument 2 contains U+0000 (NUL), …"
 * ```
 */
export function guardStoreTransaction<T extends object>(tx: T): T {
  const guarded: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(tx)) {
    if (typeof operation !== 'function') {
      guarded[name] = operation;
      continue;
    }
    guarded[name] = (...args: unknown[]): unknown => {
      const found = firstUnstorableArgument(checkedArguments(name, args));
      if (found === undefined) return (operation as (...a: unknown[]) => unknown).apply(tx, args);
      const where = `argument ${found.argument + 1}${found.pointer === '' ? '' : ` at ${found.pointer}`}`;
      return Promise.reject(
        new StoreError(
          'unstorable_value',
          `${name}: ${where} ${UNSTORABLE_MESSAGES[found.problem]}`,
        ),
      );
    };
  }
  return guarded as T;
}
