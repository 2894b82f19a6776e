// Which page renders for which route. Feature pages (approvals, scenarios, test clock)
// live in app/features/.
import type { Route } from './routing/routes-match.js';
import { RunsPage } from './pages/RunsPage.js';
import { RunPage } from './pages/RunPage.js';
import { NotFoundPage } from './pages/NotFoundPage.js';
import { ApprovalsPage } from './features/approvals/ApprovalsPage.js';
import { ClockPage } from './features/clock/ClockPage.js';
import { ScenarioPage } from './features/scenarios/ScenarioPage.js';
import { ScenariosPage } from './features/scenarios/ScenariosPage.js';

/** Props of {@link RoutePage}. */
export interface RoutePageProps {
  route: Route;
  /** The query string of the location (`?status=waiting`), for pages that keep state there. */
  search: string;
}

/** The page of `route`. */
export function RoutePage({ route, search }: RoutePageProps) {
  switch (route.name) {
    case 'runs':
      return <RunsPage search={search} />;
    case 'run':
      return <RunPage key={route.id} id={route.id} />;
    case 'approvals':
      return <ApprovalsPage />;
    case 'scenarios':
      return <ScenariosPage />;
    case 'scenario':
      return <ScenarioPage key={route.id} id={route.id} />;
    case 'clock':
      return <ClockPage />;
    case 'not_found':
      return <NotFoundPage path={route.path} />;
  }
}
