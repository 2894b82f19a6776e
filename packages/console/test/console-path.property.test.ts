// No request path, however spelt, reads a file outside the app: checked on the pure path
// resolution and on the handler serving a fixture with a secret next to it.
import { rm } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConsolePath } from '../src/console-path.js';
import { createConsoleHandler, type ConsoleHandler } from '../src/index.js';
import { appFixture, SECRET } from './support/app-fixture.js';

let root = '';
let handler: ConsoleHandler;

beforeAll(async () => {
  const fixture = await appFixture();
  root = fixture.root;
  handler = createConsoleHandler({ appDirectory: fixture.app });
});

afterAll(() => rm(root, { recursive: true, force: true }));

// Path pieces a traversal would be made of, encoded every which way, plus anything at all.
const piece = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2E%2E',
    '%2e',
    '.%2e',
    '%2e.',
    '%252e%252e',
    '%2f',
    '%2F',
    '%5c',
    '\\',
    '%00',
    '%',
    '%zz',
    '//',
    'assets',
    'secret.txt',
    'index.html',
    'main-abc.js',
    '..%2f',
    '%c0%ae%c0%ae',
    '\u2025',
    '．．',
  ),
  fc.string({ maxLength: 8 }),
  fc.webSegment(),
);
const rawPath = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join('/'));

describe('console paths', () => {
  it('resolve to no file with a dot segment, a slash or a backslash inside a segment', () => {
    fc.assert(
      fc.property(rawPath, (rest) => {
        const target = resolveConsolePath(`/console/${rest}`, '/console');
        if (target.kind !== 'asset') return;
        const segments = target.file.split('/');
        expect(segments).not.toContain('..');
        expect(segments).not.toContain('.');
        expect(target.file).not.toMatch(/[\\\0]/);
      }),
      { numRuns: 2000 },
    );
  });

  it('never make the handler answer the secret beside the app, nor fail', async () => {
    await fc.assert(
      fc.asyncProperty(
        rawPath,
        fc.constantFrom('/console/', '/console/assets/', '/'),
        async (rest, base) => {
          let url: URL;
          try {
            url = new URL(`http://host${base}${rest}`);
          } catch {
            return; // not a URL a client could send
          }
          const response = await handler.handle(new Request(url));
          expect([200, 404]).toContain(response.status);
          expect(await response.text()).not.toContain(SECRET);
          expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('decide outside, page or asset for any string without throwing', () => {
    fc.assert(
      fc.property(fc.string(), (path) => {
        const target = resolveConsolePath(path, '/console');
        expect(['outside', 'invalid', 'asset', 'page']).toContain(target.kind);
        if (!path.startsWith('/console')) expect(target.kind).toBe('outside');
      }),
    );
  });
});
