// The app: find out who is signed in (a stored key, else the host's cookie session),
// then render the sign-in page or the signed-in layout with the page of the location.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, toApiError } from './api/api-error.js';
import { api, setUnauthorizedHandler } from './api/client.js';
import { forgetSessionKey, readSessionKey, storeSessionKey } from './api/session-key.js';
import type { Principal } from './api/types.js';
import { SessionContext, type Session } from './auth/session.js';
import { Layout } from './components/Layout.js';
import { SignInPage } from './pages/SignInPage.js';
import { RoutePage } from './routes.js';
import { useLocation } from './routing/navigation.js';

type State =
  | { kind: 'loading' }
  | { kind: 'signed_out'; notice: unknown }
  | { kind: 'signed_in'; principal: Principal; withKey: boolean };

/** GET /v1/principal with `key` (or cookies only, for null). */
async function fetchPrincipal(key: string | null): Promise<Principal> {
  const response = await api.raw('/v1/principal', {}, key);
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as Principal;
}

const REVOKED = new ApiError(
  401,
  'authentication_required',
  'The API no longer accepts the key of this tab. Sign in again.',
);

/** The root component. */
export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const location = useLocation();

  useEffect(() => {
    let live = true;
    const key = readSessionKey();
    fetchPrincipal(key).then(
      (principal) => live && setState({ kind: 'signed_in', principal, withKey: key !== null }),
      (error: unknown) => {
        if (!live) return;
        if (key !== null && error instanceof ApiError && error.status === 401) forgetSessionKey();
        const stale = key !== null && error instanceof ApiError && error.status === 401;
        const quiet = key === null && error instanceof ApiError && error.status === 401;
        setState({ kind: 'signed_out', notice: stale ? REVOKED : quiet ? null : error });
      },
    );
    setUnauthorizedHandler(() => {
      forgetSessionKey();
      setState({ kind: 'signed_out', notice: REVOKED });
    });
    return () => {
      live = false;
      setUnauthorizedHandler(null);
    };
  }, []);

  const session = useMemo<Session | null>(
    () =>
      state.kind === 'signed_in'
        ? {
            principal: state.principal,
            withKey: state.withKey,
            signOut: () => {
              forgetSessionKey();
              setState({ kind: 'signed_out', notice: null });
            },
          }
        : null,
    [state],
  );

  if (state.kind === 'loading') {
    return (
      <main id="main" class="loading">
        <p role="status">Loading…</p>
      </main>
    );
  }
  if (state.kind === 'signed_out' || session === null) {
    const notice = state.kind === 'signed_out' ? state.notice : null;
    return (
      <SignInPage
        notice={notice}
        onSignIn={async (key) => {
          const principal = await fetchPrincipal(key);
          storeSessionKey(key);
          setState({ kind: 'signed_in', principal, withKey: true });
        }}
      />
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <Layout route={location.route} locationKey={location.pathname + location.search}>
        <RoutePage route={location.route} search={location.search} />
      </Layout>
    </SessionContext.Provider>
  );
}
