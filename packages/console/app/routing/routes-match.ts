// The console's client routes, as data: matching a pathname under the prefix and building
// hrefs back. Pure (no DOM), unit-tested in test/router.test.ts.

/** A page of the console. */
export type Route =
  | { name: 'runs' }
  | { name: 'run'; id: string }
  | { name: 'approvals' }
  | { name: 'scenarios' }
  | { name: 'scenario'; id: string }
  | { name: 'clock' }
  | { name: 'not_found'; path: string };

function decodeSegment(segment: string): string | null {
  try {
    const decoded = decodeURIComponent(segment);
    return decoded === '' ? null : decoded;
  } catch {
    return null;
  }
}

/** The route of `pathname` under `prefix` (e.g. `/console/runs/prun_1` → run prun_1). */
export function matchRoute(pathname: string, prefix: string): Route {
  let rest: string;
  if (pathname === prefix || pathname === `${prefix}/`) rest = '';
  else if (pathname.startsWith(`${prefix}/`)) rest = pathname.slice(prefix.length + 1);
  else return { name: 'not_found', path: pathname };
  const segments = rest.replace(/\/+$/, '').split('/');
  const [first = '', second, ...more] = segments;
  if (more.length > 0) return { name: 'not_found', path: pathname };
  if (second === undefined) {
    switch (first) {
      case '':
      case 'runs':
        return { name: 'runs' };
      case 'approvals':
        return { name: 'approvals' };
      case 'scenarios':
        return { name: 'scenarios' };
      case 'clock':
        return { name: 'clock' };
      default:
        return { name: 'not_found', path: pathname };
    }
  }
  const id = decodeSegment(second);
  if (id === null) return { name: 'not_found', path: pathname };
  if (first === 'runs') return { name: 'run', id };
  if (first === 'scenarios') return { name: 'scenario', id };
  return { name: 'not_found', path: pathname };
}

/** The href of a route under `prefix`. */
export function routeHref(prefix: string, route: Exclude<Route, { name: 'not_found' }>): string {
  switch (route.name) {
    case 'runs':
      return `${prefix}/`;
    case 'run':
      return `${prefix}/runs/${encodeURIComponent(route.id)}`;
    case 'approvals':
      return `${prefix}/approvals`;
    case 'scenarios':
      return `${prefix}/scenarios`;
    case 'scenario':
      return `${prefix}/scenarios/${encodeURIComponent(route.id)}`;
    case 'clock':
      return `${prefix}/clock`;
  }
}
