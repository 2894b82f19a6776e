// A stand-in build for handler tests: dist/app-like files, with a secret next to them
// that no request may ever read.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The fixture's secret: found in a response body means a traversal got out. */
export const SECRET = 'SECRET-OUTSIDE-THE-APP-7f3a';

/** Makes `<tmp>/app/` (index.html, assets/main-abc.js, assets/main-abc.css) and `<tmp>/secret.txt`. */
export async function appFixture(): Promise<{ root: string; app: string }> {
  const root = await mkdtemp(join(tmpdir(), 'programrun-console-'));
  const app = join(root, 'app');
  await mkdir(join(app, 'assets'), { recursive: true });
  await writeFile(
    join(app, 'index.html'),
    '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8" />\n    <script type="module" crossorigin src="./assets/main-abc.js"></script>\n    <link rel="stylesheet" crossorigin href="./assets/main-abc.css">\n  </head>\n  <body><div id="app"></div></body>\n</html>\n',
  );
  await writeFile(join(app, 'assets', 'main-abc.js'), 'console.log("app");\n');
  await writeFile(join(app, 'assets', 'main-abc.css'), 'body { margin: 0; }\n');
  await writeFile(join(root, 'secret.txt'), SECRET);
  return { root, app };
}
