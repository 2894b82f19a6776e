import { createMemoryStore, type StoreV1 } from '@programrun/engine';
import { UsageError } from '../usage-error.js';

/** A store the CLI works on, and whether what it writes outlives the command. */
export interface OpenedStore {
  readonly store: StoreV1;
  /** False for the memory store: everything is gone when the command exits. */
  readonly durable: boolean;
  /** Called when the command is done with the store. */
  close(): Promise<void>;
}

/** Opens the store a command works on. */
export type StoreOpener = () => Promise<OpenedStore>;

/**
 * The store `PROGRAMRUN_STORE` names (default `memory`). Only the memory store exists so
 * far; the durable ones (PGlite, PostgreSQL) come with `@programrun/store-postgres`.
 *
 * @example
 * ```ts
 * const { store, durable } = await openStoreFromEnvironment(process.env);
 * ```
 */
export function openStoreFromEnvironment(
  environment: Readonly<Record<string, string | undefined>>,
): Promise<OpenedStore> {
  const name = environment.PROGRAMRUN_STORE ?? 'memory';
  if (name === 'memory') {
    const store = createMemoryStore();
    return Promise.resolve({ store, durable: false, close: () => store.close() });
  }
  return Promise.reject(
    new UsageError(
      `PROGRAMRUN_STORE=${name} is not available yet: the only store so far is memory (PGlite and PostgreSQL arrive with @programrun/store-postgres)`,
    ),
  );
}
