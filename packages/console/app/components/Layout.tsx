// The frame of every signed-in page: banner (product, account, actor, scopes, TEST MODE,
// Sign out), the "Main" navigation, and <main>. Focus moves to the page's heading on
// navigation so screen readers announce the new page.
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { useSession } from '../auth/session.js';
import { href, Link } from '../routing/navigation.js';
import type { Route } from '../routing/routes-match.js';

/** Props of {@link Layout}. */
export interface LayoutProps {
  route: Route;
  /** Changes on every navigation (pathname + search): focus moves to the new page. */
  locationKey: string;
  children: ComponentChildren;
}

function NavLink({ to, current, label }: { to: string; current: boolean; label: string }) {
  return (
    <li>
      <Link href={to} aria-current={current ? 'page' : undefined}>
        {label}
      </Link>
    </li>
  );
}

/** The signed-in layout. */
export function Layout({ route, locationKey, children }: LayoutProps) {
  const { principal, signOut } = useSession();
  const test = principal.environment === 'test';
  useEffect(() => {
    // Not on first load: the browser starts at the top of the document there.
    if (document.activeElement === document.body || document.activeElement === null) return;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    }
  }, [locationKey]);

  return (
    <div class="app">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="banner">
        {test ? (
          <p class="test-banner">
            <strong>TEST MODE</strong> — test key: simulated partners, test clock, no real money.
          </p>
        ) : null}
        <div class="banner-row">
          <p class="product">
            <Link href={href({ name: 'runs' })}>programrun console</Link>
          </p>
          <dl class="who">
            <div>
              <dt>Account</dt>
              <dd>{principal.account}</dd>
            </div>
            <div>
              <dt>Actor</dt>
              <dd>{principal.actor}</dd>
            </div>
            <div>
              <dt>Environment</dt>
              <dd>{principal.environment}</dd>
            </div>
          </dl>
          <button type="button" class="sign-out" onClick={signOut}>
            Sign out
          </button>
        </div>
        <div class="scopes-row">
          <span id="scopes-label">Scopes</span>
          <ul class="scopes" aria-labelledby="scopes-label">
            {principal.scopes.map((scope) => (
              <li key={scope}>
                <code>{scope}</code>
              </li>
            ))}
          </ul>
        </div>
      </header>
      <nav aria-label="Main" class="main-nav">
        <ul>
          <NavLink
            to={href({ name: 'runs' })}
            current={route.name === 'runs' || route.name === 'run'}
            label="Runs"
          />
          <NavLink
            to={href({ name: 'approvals' })}
            current={route.name === 'approvals'}
            label="Approvals"
          />
          <NavLink
            to={href({ name: 'scenarios' })}
            current={route.name === 'scenarios' || route.name === 'scenario'}
            label="Scenarios"
          />
          {test ? (
            <NavLink
              to={href({ name: 'clock' })}
              current={route.name === 'clock'}
              label="Test clock"
            />
          ) : null}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
