// The signed-in principal, shared with every page through context.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Principal } from '../api/types.js';
import { can, type ConsoleScope } from './can.js';

/** Who is signed in, and how to sign out. */
export interface Session {
  principal: Principal;
  /** True when signed in with a pasted key; false when the host's cookie session answered. */
  withKey: boolean;
  signOut: () => void;
}

/** Provided by the app around every signed-in page. */
export const SessionContext = createContext<Session | null>(null);

/** The session; only under the signed-in layout. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession() outside the signed-in layout');
  return session;
}

/** `can(scope, party?)` for the signed-in principal (see auth/can.ts). */
export function useCan(): (
  scope: ConsoleScope,
  party?: string | readonly string[] | null,
) => boolean {
  const { principal } = useSession();
  return (scope, party) => can(principal.scopes, scope, party);
}

/** True when the principal uses a test key (test helpers, partner answers). */
export function useTestMode(): boolean {
  return useSession().principal.environment === 'test';
}
