// A stranger's project: every publishable package packed, the tarballs installed together
// with plain npm into an empty project outside the workspace (no pnpm links), then the
// embedding guide's minimal server (taken from the guide's own code block) type-checked and
// run, a run created over HTTP and driven to `completed`, `npx programrun validate`, `new`
// and `check`, and a `scenarioSuite` vitest file. The guide changes, this test follows.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, repositoryFile } from '../src/markdown-blocks.js';
import { pnpmCommand } from '../src/pnpm.js';
import { mustRun, runCommand, userEnvironment } from '../src/run-command.js';
import { startServer, type ServerProcess } from '../src/server-process.js';

/** Every package a user installs from the registry, by directory. */
const PUBLISHED = [
  'packages/evidence',
  'packages/dsl',
  'packages/engine',
  'packages/http',
  'packages/store-postgres',
  'packages/webhooks',
  'packages/testing',
  'packages/console',
  'packages/cli',
  'scenarios',
];

let work = '';
let project = '';
const names: string[] = [];

async function manifestOf(directory: string) {
  return JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as {
    name: string;
    license: string;
    repository?: { url: string; directory: string };
    homepage?: string;
    bugs?: { url: string };
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'programrun-consumer-'));
  const tarballs = join(work, 'tarballs');
  await mkdir(tarballs);
  const pnpm = pnpmCommand();
  for (const directory of PUBLISHED) {
    names.push((await manifestOf(repositoryFile(directory))).name);
    await mustRun(pnpm.command, [...pnpm.args, 'pack', '--pack-destination', tarballs], {
      cwd: repositoryFile(directory),
    });
  }
  const files = (await readdir(tarballs)).sort();
  expect(files).toHaveLength(PUBLISHED.length);
  project = join(work, 'project');
  await mkdir(project);
  const dependencies = Object.fromEntries(
    names.map((name) => {
      const file = files.find((candidate) =>
        candidate.startsWith(`${name.replace('@', '').replace('/', '-')}-`),
      )!;
      return [name, `file:../tarballs/${file}`];
    }),
  );
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify(
      {
        name: 'a-platform-team',
        private: true,
        type: 'module',
        dependencies,
        devDependencies: {
          '@types/node': '20.19.43',
          tsx: '4.23.15',
          typescript: '5.9.3',
          vitest: '4.1.12',
        },
      },
      null,
      2,
    ),
  );
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  );
  await mustRun('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: project,
    timeoutMs: 280_000,
  });
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** The fields of an answer this test reads. */
interface ApiBody {
  readonly id?: string;
  readonly status?: string;
  readonly awaiting?: { readonly step: string } | null;
  readonly data?: unknown[];
}

const installed = (name: string) => join(project, 'node_modules', name);

describe('the packages, installed from their tarballs by npm in a project of their own', () => {
  it('each ships its LICENSE, a README and where it comes from; no workspace links remain', async () => {
    const license = await readFile(repositoryFile('LICENSE'), 'utf8');
    for (const name of names) {
      const directory = installed(name);
      expect(await readFile(join(directory, 'LICENSE'), 'utf8'), name).toBe(license);
      expect(existsSync(join(directory, 'README.md')), `${name} README.md`).toBe(true);
      const manifest = await manifestOf(directory);
      expect(manifest.license).toBe('Apache-2.0');
      expect(manifest.repository?.url).toBe('git+https://github.com/programrun/programrun.git');
      expect(manifest.homepage).toMatch(/^https:\/\/github\.com\/programrun\/programrun\//);
      expect(manifest.bugs?.url).toBe('https://github.com/programrun/programrun/issues');
      const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
      expect(Object.values(ranges).filter((range) => range.startsWith('workspace:'))).toEqual([]);
    }
    expect(existsSync(installed('@programrun/scenarios/scenario.schema.json'))).toBe(true);
  });

  it('type-checks and runs the embedding guide’s minimal server, which drives a run to completed', async () => {
    const guide = codeBlocks(repositoryFile('docs/guides/embedding.md'));
    const server = guide.find(
      (block) => block.section === 'A complete minimal server' && block.language === 'ts',
    );
    expect(server, 'the guide has a ts block under "A complete minimal server"').toBeDefined();
    await writeFile(join(project, 'server.ts'), server!.code);
    await mustRun(process.execPath, [join(project, 'node_modules/typescript/bin/tsc')], {
      cwd: project,
    });

    let running: ServerProcess | undefined;
    try {
      running = await startServer(process.execPath, ['--import', 'tsx', 'server.ts'], {
        cwd: project,
        env: { PORT: '0' },
        ready: [/programrun on http:\/\/127\.0\.0\.1:\d+/, /Test API key: \S+/],
      });
      const base = /programrun on (http:\/\/127\.0\.0\.1:\d+)/.exec(running.output())![1]!;
      const key = /Test API key: (\S+)/.exec(running.output())![1]!;
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            ...(method === 'POST' && path === '/v1/program-runs'
              ? { 'idempotency-key': crypto.randomUUID() }
              : {}),
          },
          body: body === undefined ? null : JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as ApiBody };
      };
      const scenarios = await call('GET', '/v1/scenarios');
      expect(scenarios.body.data).toHaveLength(7);
      const created = await call('POST', '/v1/program-runs', {
        scenario_id: 'wallet-delivery@v1',
        inputs: {
          amount: '125.00',
          destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        },
      });
      expect(created.status).toBe(201);
      const id = created.body.id!;
      expect(created.body.awaiting).toMatchObject({ step: 'screen_destination' });
      // The simulated partners answer after the scenario's latency: move the test clock.
      await call('POST', '/v1/test_helpers/clock/advance', { seconds: 60 });
      expect((await call('GET', `/v1/program-runs/${id}`)).body.awaiting).toMatchObject({
        step: 'release_approval',
      });
      const approved = await call('POST', `/v1/program-runs/${id}/approvals`, {
        step: 'release_approval',
        decision: 'approve',
        approver: 'ops:alice',
      });
      expect(approved.status).toBe(200);
      await call('POST', '/v1/test_helpers/clock/advance', { seconds: 60 });
      const done = await call('GET', `/v1/program-runs/${id}`);
      expect(done.body.status).toBe('completed');
    } finally {
      await running?.stop();
    }
  });

  it('serves the run console from the installed package, its built app included', async () => {
    await writeFile(
      join(project, 'console-check.ts'),
      [
        "import { createConsoleHandler } from '@programrun/console';",
        'const handler = createConsoleHandler();',
        "const page = await handler.handle(new Request('http://localhost/console/runs/prun_x'));",
        'const html = await page.text();',
        'const script = /src="([^"]+\\.js)"/.exec(html)?.[1] ?? "";',
        'const asset = await handler.handle(new Request(`http://localhost${script}`));',
        "console.log(JSON.stringify({ page: page.status, csp: page.headers.get('content-security-policy'), script, asset: asset.status, type: asset.headers.get('content-type') }));",
      ].join('\n'),
    );
    const checked = await mustRun(process.execPath, ['--import', 'tsx', 'console-check.ts'], {
      cwd: project,
    });
    const result = JSON.parse(checked.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ page: 200, asset: 200, type: 'text/javascript; charset=utf-8' });
    expect(result.script).toMatch(/^\/console\/assets\/.+\.js$/);
    expect(result.csp).toContain("script-src 'self'");
  });

  it('runs npx programrun validate, new and check, and a scenarioSuite vitest file', async () => {
    const scenario = 'node_modules/@programrun/scenarios/wallet-delivery@v1.yaml';
    const validated = await mustRun('npx', ['programrun', 'validate', scenario], {
      cwd: project,
    });
    expect(validated.stdout).toContain(`${scenario}: ok wallet-delivery@v1 sha256:`);

    await mustRun('npx', ['programrun', 'new', 'demo-payout', '--dir', 'scenarios'], {
      cwd: project,
    });
    const text = await readFile(join(project, 'scenarios/demo-payout@v1.yaml'), 'utf8');
    const schema = /\$schema=(\S+)/.exec(text.split('\n')[0]!)![1]!;
    expect(schema).toBe('../node_modules/@programrun/scenarios/scenario.schema.json');
    expect(existsSync(resolve(project, 'scenarios', schema))).toBe(true);

    const checked = await mustRun('npx', ['programrun', 'check', scenario], {
      cwd: project,
    });
    expect(checked.stdout).toContain('wallet-delivery@v1');

    const suite = await runCommand('npx', ['vitest', 'run', 'scenarios'], {
      cwd: project,
      env: { ...userEnvironment(), NO_COLOR: '1' },
    });
    expect(suite.code, `${suite.stdout}\n${suite.stderr}`).toBe(0);
    expect(suite.stdout).toMatch(/Tests\s+\d+ passed/);
  });
});
