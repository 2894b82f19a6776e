// The console's client routes and where it is mounted (app/routing/, pure).
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PREFIX,
  normalizePrefix,
  prefixFromAssetUrl,
  resolvePrefix,
} from '../app/routing/prefix.js';
import { matchRoute, routeHref, type Route } from '../app/routing/routes-match.js';

describe('matchRoute', () => {
  const cases: [string, Route][] = [
    ['/console', { name: 'runs' }],
    ['/console/', { name: 'runs' }],
    ['/console/runs', { name: 'runs' }],
    ['/console/runs/prun_1', { name: 'run', id: 'prun_1' }],
    ['/console/runs/prun_1/', { name: 'run', id: 'prun_1' }],
    ['/console/approvals', { name: 'approvals' }],
    ['/console/scenarios', { name: 'scenarios' }],
    ['/console/scenarios/wallet-delivery%40v1', { name: 'scenario', id: 'wallet-delivery@v1' }],
    ['/console/scenarios/wallet-delivery@v1', { name: 'scenario', id: 'wallet-delivery@v1' }],
    ['/console/clock', { name: 'clock' }],
    ['/console/nope', { name: 'not_found', path: '/console/nope' }],
    ['/console/runs/a/b', { name: 'not_found', path: '/console/runs/a/b' }],
    ['/console/runs/a%2Fb', { name: 'run', id: 'a/b' }], // an encoded slash is part of the id
    ['/console/runs/%zz', { name: 'not_found', path: '/console/runs/%zz' }],
    ['/consoles', { name: 'not_found', path: '/consoles' }],
    ['/elsewhere/runs/prun_1', { name: 'not_found', path: '/elsewhere/runs/prun_1' }],
  ];
  it.each(cases)('%s', (path, route) => {
    expect(matchRoute(path, '/console')).toEqual(route);
  });

  it('works under a deeper prefix', () => {
    expect(matchRoute('/ops/console/runs/prun_2', '/ops/console')).toEqual({
      name: 'run',
      id: 'prun_2',
    });
    expect(matchRoute('/console/runs/prun_2', '/ops/console').name).toBe('not_found');
  });
});

describe('routeHref', () => {
  it('builds the href of each page, encoding ids, and matches it back', () => {
    const routes = [
      { name: 'runs' },
      { name: 'run', id: 'prun_1' },
      { name: 'approvals' },
      { name: 'scenarios' },
      { name: 'scenario', id: 'wallet delivery@v1/x?' },
      { name: 'clock' },
    ] as const;
    for (const route of routes) {
      const href = routeHref('/console', route);
      expect(href.startsWith('/console/')).toBe(true);
      expect(matchRoute(new URL(href, 'http://x').pathname, '/console')).toEqual(route);
    }
    expect(routeHref('/console', { name: 'run', id: 'a/b' })).toBe('/console/runs/a%2Fb');
  });
});

describe('the prefix', () => {
  it('normalises a prefix', () => {
    expect(normalizePrefix('/console/')).toBe('/console');
    expect(normalizePrefix('console')).toBe('/console');
    expect(normalizePrefix(' /ops/console// ')).toBe('/ops/console');
    expect(normalizePrefix('/')).toBe('');
  });

  it('reads it from the script URL, before /assets/', () => {
    expect(prefixFromAssetUrl('https://host/console/assets/index-1a2b.js')).toBe('/console');
    expect(prefixFromAssetUrl('https://host/ops/console/assets/index-1a2b.js')).toBe(
      '/ops/console',
    );
    expect(prefixFromAssetUrl('https://host/index.js')).toBeNull();
    expect(prefixFromAssetUrl('not a url')).toBeNull();
  });

  it('prefers the meta tag the handler writes, then the script URL, then /console', () => {
    expect(resolvePrefix('/ops', 'https://h/console/assets/a.js')).toBe('/ops');
    expect(resolvePrefix(null, 'https://h/x/console/assets/a.js')).toBe('/x/console');
    expect(resolvePrefix('  ', null)).toBe(DEFAULT_PREFIX);
    expect(resolvePrefix(null, 'https://h/a.js')).toBe(DEFAULT_PREFIX);
  });
});
