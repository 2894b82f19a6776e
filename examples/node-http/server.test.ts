import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@programrun/engine';

// Boots server.ts as the README's first command does (from source, so no build is needed)
// and drives a run over real HTTP in real time: simulated partners answer after ~2 s.
const key = generateApiKey('test');
let child: ChildProcess;
let base = '';
let banner = '';

beforeAll(async () => {
  const directory = fileURLToPath(new URL('.', import.meta.url));
  child = spawn(
    process.execPath,
    ['--conditions=@programrun/source', '--import', 'tsx', 'server.ts'],
    {
      cwd: directory,
      env: { ...process.env, PORT: '0', PROGRAMRUN_TEST_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${banner}`)), 20_000);
    const collect = (chunk: Buffer) => {
      banner += chunk.toString();
      const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner);
      if (match && banner.includes('Catalogue:')) {
        base = match[1]!;
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.on('exit', (code) => reject(new Error(`server exited with ${String(code)}:\n${banner}`)));
  });
});

afterAll(() => {
  child.kill('SIGTERM');
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });

describe('the reference server', () => {
  it('prints the test key and a curl that creates a run', () => {
    expect(banner).toContain(`Test API key: ${key}`);
    expect(banner).toContain(`curl -s ${base}/v1/program-runs`);
    expect(banner).toContain('"scenario_id":"wallet-delivery@v1"');
  });

  it('serves all seven scenarios', async () => {
    const list = (await (await api('/v1/scenarios')).json()) as { data: { id: string }[] };
    expect(list.data).toHaveLength(7);
  });

  it('runs the printed request, and simulated partners answer on their own', async () => {
    const body = /-d '(\{.*\})'/.exec(banner)![1]!;
    const created = await api('/v1/program-runs', {
      method: 'POST',
      body,
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(created.status).toBe(201);
    const run = (await created.json()) as { id: string; awaiting: { step: string } };
    expect(run.awaiting.step).toBe('screen_destination');
    let current = run;
    for (
      let attempt = 0;
      attempt < 40 && current.awaiting.step === 'screen_destination';
      attempt += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      current = (await (await api(`/v1/program-runs/${run.id}`)).json()) as typeof run;
    }
    expect(current.awaiting.step).toBe('release_approval');
  });

  it('refuses requests without the key', async () => {
    const response = await fetch(`${base}/v1/scenarios`);
    expect(response.status).toBe(401);
  });
});
