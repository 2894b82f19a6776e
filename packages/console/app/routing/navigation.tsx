// Client-side navigation: the History API, a hook for the current location, and <Link>.
import type { ComponentChildren, TargetedMouseEvent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { DEFAULT_PREFIX, resolvePrefix } from './prefix.js';
import { matchRoute, routeHref, type Route } from './routes-match.js';

let prefix = DEFAULT_PREFIX;

/** Reads the mount prefix from the document (call once at startup). */
export function initPrefix(): string {
  const meta = document.querySelector('meta[name="programrun-console-prefix"]');
  prefix = resolvePrefix(meta?.getAttribute('content') ?? null, import.meta.url);
  return prefix;
}

/** The mount prefix, e.g. `/console`. */
export function consolePrefix(): string {
  return prefix;
}

/** The href of a page: `href({ name: 'run', id })` → `/console/runs/prun_…`. */
export function href(route: Exclude<Route, { name: 'not_found' }>): string {
  return routeHref(prefix, route);
}

const listeners = new Set<() => void>();

/** Goes to `to` (a path under the prefix, with an optional query string). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((listener) => listener());
}

/** The current location; re-renders on navigation and on Back/Forward. */
export function useLocation(): { pathname: string; search: string; route: Route } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((tick) => tick + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  const { pathname, search } = window.location;
  return { pathname, search, route: matchRoute(pathname, prefix) };
}

/** Props of {@link Link}. */
export interface LinkProps {
  href: string;
  class?: string;
  'aria-current'?: 'page' | 'step' | undefined;
  'aria-label'?: string;
  children?: ComponentChildren;
}

/** An ordinary link that navigates in place (modified clicks open as usual). */
export function Link({ href: to, children, ...rest }: LinkProps) {
  const onClick = (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a {...rest} href={to} onClick={onClick}>
      {children}
    </a>
  );
}
