// The built app (dist/app, made by `vite build`; `test` depends on `build`): small enough,
// and nothing inline the CSP would have to allow.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const APP = fileURLToPath(new URL('../dist/app/', import.meta.url));
const BUDGET_BYTES = 200 * 1024;

async function files(extension: string): Promise<string[]> {
  const entries = await readdir(APP, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the built console app', () => {
  it('ships at most 200 kB of gzip-compressed JavaScript', async () => {
    const scripts = await files('.js');
    expect(scripts.length).toBeGreaterThan(0);
    let gzipped = 0;
    let raw = 0;
    for (const file of scripts) {
      const bytes = await readFile(file);
      raw += bytes.length;
      gzipped += gzipSync(bytes, { level: 9 }).length;
    }
    console.log(
      `console JS: ${(raw / 1024).toFixed(1)} kB raw, ${(gzipped / 1024).toFixed(1)} kB gzip (budget 200 kB) in ${scripts.length} file(s)`,
    );
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('has an index.html without inline scripts, styles or event handlers', async () => {
    const html = await readFile(join(APP, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\ssrc="\.\/assets\/[^"]+\.js"/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/modulepreload/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i); // no CDN
    expect(html).not.toMatch(/<base\b/i);
  });

  it('loads every asset by a relative URL, so the host picks the prefix', async () => {
    const html = await readFile(join(APP, 'index.html'), 'utf8');
    const urls = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    for (const url of urls.filter((value) => !value.startsWith('data:'))) {
      expect(url).toMatch(/^\.\/assets\//);
    }
  });

  it('has no eval in its scripts', async () => {
    for (const file of await files('.js')) {
      const text = await readFile(file, 'utf8');
      expect(text, file).not.toMatch(/\bnew Function\(|\beval\(/);
    }
  });
});
