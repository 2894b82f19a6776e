// The test every framework example runs: boot its server.ts as `pnpm start` does (from
// source) on a free port, then drive it over real HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Defines the tests of the example whose server.ts is next to `testFileUrl`. */
export function describeExample(framework: string, testFileUrl: string): void {
  let key = '';
  let child: ChildProcess;
  let base = '';
  let output = '';

  beforeAll(async () => {
    child = spawn(
      process.execPath,
      ['--conditions=@programrun/source', '--import', 'tsx', 'server.ts'],
      {
        cwd: fileURLToPath(new URL('.', testFileUrl)),
        // A new key is printed; the memory store whatever the caller's PROGRAMRUN_STORE.
        env: { ...process.env, PORT: '0', PROGRAMRUN_TEST_KEY: '', PROGRAMRUN_STORE: 'memory' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 45_000);
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match && output.includes("-d '")) {
          base = match[1]!;
          key = /Test API key: (\S+)/.exec(output)![1]!;
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      child.on('exit', (code) =>
        reject(new Error(`server exited with ${String(code)}:\n${output}`)),
      );
    });
  }, 60_000);

  afterAll(() => {
    child.kill('SIGTERM');
  });

  describe(`the ${framework} example`, () => {
    it('serves its own route next to programrun', async () => {
      const response = await fetch(`${base}/health`);
      expect(await response.json()).toEqual({ ok: true });
    });

    it('creates a run with the printed request', async () => {
      const response = await fetch(`${base}/v1/program-runs`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'idempotency-key': crypto.randomUUID(),
          'content-type': 'application/json',
        },
        body: /-d '(\{.*\})'/.exec(output)![1]!,
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ object: 'program_run', status: 'waiting' });
    });

    it('answers unknown /v1 paths with problem+json', async () => {
      const response = await fetch(`${base}/v1/nothing`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    });
  });
}
