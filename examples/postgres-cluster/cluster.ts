// Starts HOSTS (default 2) programrun hosts on consecutive ports from PORT (default 8801),
// all against DATABASE_URL with one shared test key and evidence key, and prints how to
// see that they behave as one service. SIGINT/SIGTERM stop every host.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadScenarioFile } from '@programrun/dsl/node';
import { generateApiKey, parseApiKey } from '@programrun/engine';
import { generateEd25519Jwk } from '@programrun/evidence';
import { redactDatabaseUrl } from '@programrun/store-postgres';
import { clusterBanner, type ReadyHost } from './cluster-banner.js';

function fail(reason: string): never {
  console.error(`programrun cluster: ${reason}`);
  process.exit(1);
}

const whole = (name: string, fallback: number, min: number, max: number): number => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max)
    fail(`${name} must be a whole number from ${min} to ${max}, not "${value}"`);
  return number;
};

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl)
  fail(
    'DATABASE_URL is not set; point it at PostgreSQL, e.g. postgres://postgres:secret@127.0.0.1:5432/programrun',
  );
const count = whole('HOSTS', 2, 1, 16);
const firstPort = whole('PORT', 8801, 1, 65535 - count + 1);
const testKey = process.env.PROGRAMRUN_TEST_KEY || generateApiKey('test');
if (parseApiKey(testKey)?.environment !== 'test')
  fail('PROGRAMRUN_TEST_KEY is not a programrun test key; leave it unset to generate one');
const evidenceKey = process.env.PROGRAMRUN_EVIDENCE_KEY || JSON.stringify(generateEd25519Jwk());

const scenario = await loadScenarioFile(
  fileURLToPath(new URL('../../scenarios/wallet-delivery@v1.yaml', import.meta.url)),
);
if (!scenario.ok) fail('scenarios/wallet-delivery@v1.yaml does not load');
const createBody = JSON.stringify({
  scenario_id: scenario.scenario.id,
  inputs: scenario.scenario.definition.example_inputs,
});

const directory = fileURLToPath(new URL('.', import.meta.url));
const children = new Map<string, ChildProcess>();
const ready: ReadyHost[] = [];
let stopping = false;

function stopAll(): void {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
  }, 15_000).unref();
}

function startHost(name: string, port: number): void {
  const child = spawn(
    process.execPath,
    ['--conditions=@programrun/source', '--import', 'tsx', 'host.ts'],
    {
      cwd: directory,
      env: {
        ...process.env,
        PORT: String(port),
        PROGRAMRUN_TEST_KEY: testKey,
        PROGRAMRUN_EVIDENCE_KEY: evidenceKey,
        PROGRAMRUN_HOST_NAME: name,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.set(name, child);
  const onLine = (line: string) => {
    console.log(`[${name}] ${line}`);
    const match = / ready on (http:\/\/127\.0\.0\.1:\d+) \(pid (\d+)/.exec(line);
    if (match) {
      ready.push({ name, url: match[1]!, pid: Number(match[2]) });
      if (ready.length === count) {
        ready.sort((a, b) => a.name.localeCompare(b.name));
        console.log(
          `\n${clusterBanner({
            hosts: ready,
            database: redactDatabaseUrl(databaseUrl!),
            schema: process.env.PROGRAMRUN_POSTGRES_SCHEMA || 'programrun',
            testKey,
            createBody,
            evidenceKeyConfigured: Boolean(process.env.PROGRAMRUN_EVIDENCE_KEY),
          })}\n`,
        );
      }
    }
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);
  child.on('exit', (code, signal) => {
    children.delete(name);
    const how = signal ? `signal ${signal}` : `code ${String(code)}`;
    if (!stopping) {
      const wasReady = ready.some((host) => host.name === name);
      console.log(
        `[${name}] host ${name} exited (${how})${wasReady ? '' : ' before it was ready'}`,
      );
      if (!wasReady) stopAll();
      else if (children.size > 0) console.log('The other hosts keep serving.');
    }
    if (children.size === 0) process.exit(stopping && ready.length === count ? 0 : 1);
  });
}

// Migrations make hosts wait for each other briefly; a minute means something is stuck.
setTimeout(() => {
  if (ready.length < count && !stopping) {
    console.error('programrun cluster: the hosts were not all ready within 60 s; stopping them');
    stopAll();
  }
}, 60_000).unref();
for (let index = 0; index < count; index += 1) {
  startHost(String.fromCharCode(65 + index), firstPort + index);
}
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
