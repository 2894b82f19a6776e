import { readAppFiles, DEFAULT_APP_DIRECTORY, type AppFile } from './app-files.js';
import { checkPrefix, resolveConsolePath } from './console-path.js';
import { indexHtmlFor } from './index-html.js';
import { CONSOLE_SECURITY_HEADERS } from './security-headers.js';

/** Options of {@link createConsoleHandler}. */
export interface ConsoleHandlerOptions {
  /**
   * The path the console is served at, as the browser sees it: the handler answers it
   * and everything under it (a framework that strips a mount path must not mount it
   * under one). @default '/console'
   */
  readonly prefix?: string;
  /** The built app to serve. @default this package's dist/app */
  readonly appDirectory?: URL | string;
}

/**
 * The console handler: a fetch-style `handle(request)`, shaped like the `/v1` handler of
 * `@programrun/http` (so every adapter mounts it), answering only its `paths`.
 */
export interface ConsoleHandler {
  handle(request: Request): Promise<Response>;
  /** The console refuses every request with a body (405); adapters read at most this much. */
  readonly maxBodyBytes: number;
  /** `[prefix]`: the adapters pass the prefix and everything under it on. */
  readonly paths: readonly string[];
  /** The prefix the console is served at. */
  readonly prefix: string;
}

interface LoadedApp {
  readonly files: Map<string, AppFile>;
  readonly index: string;
}

// Bodies are refused (405) unread; adapters only need a small positive limit to read up to.
const MAX_BODY_BYTES = 1024;

const ASSET_CACHE = 'public, max-age=31536000, immutable';

// The codes and titles of the error catalogue of @programrun/http (docs/reference/errors.md).
const PROBLEMS = {
  route_not_found: { status: 404, title: 'No such endpoint' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_ready: { status: 503, title: 'Not ready' },
} as const;

/** A response with the security headers and a `content-length`; no body for HEAD. */
function answer(
  request: Request,
  status: number,
  headers: Record<string, string>,
  body: Uint8Array | string,
): Response {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return new Response(request.method === 'HEAD' ? null : bytes, {
    status,
    headers: { ...CONSOLE_SECURITY_HEADERS, ...headers, 'content-length': String(bytes.length) },
  });
}

/** A problem+json answer with a code of the catalogue. */
function problem(
  request: Request,
  code: keyof typeof PROBLEMS,
  detail: string,
  headers: Record<string, string> = {},
): Response {
  const { status, title } = PROBLEMS[code];
  const type = `https://programrun.dev/problems/${code}`;
  const body = JSON.stringify({ type, title, status, code, detail });
  const kind = { 'content-type': 'application/problem+json', 'cache-control': 'no-store' };
  return answer(request, status, { ...kind, ...headers }, body);
}

/**
 * Serves the run console (a single-page app) under a prefix: `index.html` for the prefix
 * and every client route under it (`/console/runs/prun_…`), with `Cache-Control:
 * no-store`; the hashed files of `assets/` with a year-long immutable cache. Every
 * response carries a strict Content-Security-Policy (no inline code), `nosniff`,
 * `Referrer-Policy: no-referrer` and `Cross-Origin-Opener-Policy: same-origin`. GET and
 * HEAD only (others: `405`); it serves nothing but the files of its own build (any other
 * path: `404`, a malformed one `400`), and answers `404` outside its prefix. The page
 * calls the `/v1` API on the same origin, so serve both from one host.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createConsoleHandler } from '@programrun/console';
 * import { firstMatching } from '@programrun/http';
 * import { createNodeListener } from '@programrun/http/node';
 *
 * const consoleHandler = createConsoleHandler({ prefix: '/console' });
 * createServer(createNodeListener(firstMatching(consoleHandler, handler))).listen(8787);
 * ```
 */
export function createConsoleHandler(options: ConsoleHandlerOptions = {}): ConsoleHandler {
  const prefix = checkPrefix(options.prefix ?? '/console');
  let loaded: Promise<LoadedApp> | undefined;
  const load = () =>
    (loaded ??= readAppFiles(options.appDirectory ?? DEFAULT_APP_DIRECTORY).then((files) => {
      const html = files.get('index.html');
      if (!html) throw new Error('index.html is missing');
      return { files, index: indexHtmlFor(new TextDecoder().decode(html.body), prefix) };
    }));

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const detail = `The console answers GET and HEAD, not ${request.method}.`;
      return problem(request, 'method_not_allowed', detail, { allow: 'GET, HEAD' });
    }
    const target = resolveConsolePath(new URL(request.url).pathname, prefix);
    if (target.kind === 'outside') {
      return problem(request, 'route_not_found', `The console is served under ${prefix}.`);
    }
    if (target.kind === 'invalid') {
      return problem(request, 'route_not_found', 'No file of the console has this path.');
    }
    let app: LoadedApp;
    try {
      app = await load();
    } catch {
      loaded = undefined; // try again on the next request (a build may be under way)
      const detail = 'The console app is not built: run `pnpm --filter @programrun/console build`.';
      return problem(request, 'not_ready', detail);
    }
    if (target.kind === 'page' || target.file === 'index.html') {
      const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
      return answer(request, 200, headers, app.index);
    }
    const file = app.files.get(target.file);
    if (!file) return problem(request, 'route_not_found', 'No file of the console has this path.');
    return answer(
      request,
      200,
      { 'content-type': file.type, 'cache-control': ASSET_CACHE },
      file.body,
    );
  };

  return { handle, maxBodyBytes: MAX_BODY_BYTES, paths: [prefix], prefix };
}
