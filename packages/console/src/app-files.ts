// The built app (dist/app), read once into memory: the handler serves only what this
// listing holds, so a request path can never reach another file.
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One file of the build, ready to send. */
export interface AppFile {
  readonly body: Uint8Array;
  readonly type: string;
}

/** Where `vite build` writes the app; the same from src/ (tests) and dist/ (published). */
export const DEFAULT_APP_DIRECTORY = new URL('../dist/app/', import.meta.url);

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The media type of a file by its extension. */
export function contentType(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Every file under `directory`, keyed by its `/`-separated path relative to it. */
export async function readAppFiles(directory: URL | string): Promise<Map<string, AppFile>> {
  const root = typeof directory === 'string' ? directory : fileURLToPath(directory);
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = new Map<string, AppFile>();
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const absolute = join(entry.parentPath, entry.name);
    const path = relative(root, absolute).split(sep).join('/');
    files.set(path, { body: await readFile(absolute), type: contentType(path) });
  }
  return files;
}
