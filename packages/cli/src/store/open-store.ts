import {
  openStoreFromEnvironment as openSelectedStore,
  StoreSelectionError,
  type OpenedStore as SelectedStore,
  type StoreDefaults,
} from '@programrun/store-postgres';
import type { StoreV1 } from '@programrun/engine';
import { UsageError } from '../usage-error.js';

/** A store the CLI works on, and whether what it writes outlives the command. */
export interface OpenedStore {
  readonly store: StoreV1;
  /** False for the memory store: everything is gone when the command exits. */
  readonly durable: boolean;
  /** Which store (`PROGRAMRUN_STORE`), when known. */
  readonly kind?: string;
  /** Its data directory (embedded, pglite) or database (postgres), when known. */
  readonly location?: string | null;
  /** Called when the command is done with the store. */
  close(): Promise<void>;
}

/** Opens the store a command works on. */
export type StoreOpener = () => Promise<OpenedStore>;

/**
 * The store `PROGRAMRUN_STORE` names (default `memory`): `embedded` or `pglite` in
 * `PROGRAMRUN_DATA_DIR` (default `.programrun/data`, the reference server's when run from
 * the repository root) or `postgres` at `DATABASE_URL`; `defaults` apply when the
 * variables are unset (`serve` defaults to `embedded`). A setting that cannot work is a usage error.
 *
 * @example
 * ```ts
 * const { store, durable } = await openStoreFromEnvironment(process.env);
 * ```
 */
export async function openStoreFromEnvironment(
  environment: Readonly<Record<string, string | undefined>>,
  defaults: StoreDefaults = {},
): Promise<SelectedStore> {
  try {
    return await openSelectedStore(environment, defaults);
  } catch (error) {
    if (error instanceof StoreSelectionError) throw new UsageError(error.message);
    throw error;
  }
}
