// The quick-start guide, executed: the reference server started as the guide starts it (on a
// free port instead of the guide's, in a fresh data directory), then every shell block of the
// guide in order in one bash session with the guide's own variables ($BASE, $KEY, $RUN, …),
// and each output held to what the guide shows after the block.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, repositoryFile } from '../src/markdown-blocks.js';
import { runCommand, userEnvironment, type CommandResult } from '../src/run-command.js';
import { startServer, type ServerProcess } from '../src/server-process.js';
import { compareShown } from '../src/shown-output.js';
import { walkthrough, type WalkthroughStep } from '../src/walkthrough.js';

const GUIDE = 'docs/guides/quick-start.md';
const steps = walkthrough(GUIDE);
const servers = steps.filter((step) => step.role === 'server');
const runs = steps.filter((step) => step.role === 'run');

/** `NAME=value` assignments in front of a command. */
const assignments = (code: string): Record<string, string> =>
  Object.fromEntries(
    [...code.matchAll(/\b([A-Z_]+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]),
  );

let dataDir = '';
let work = '';
let server: ServerProcess | undefined;
let result: CommandResult;
const outputs = new Map<WalkthroughStep, string>();

beforeAll(async () => {
  const configured = assignments(servers.at(-1)!.block.code);
  const guideBase = `http://127.0.0.1:${configured.PORT ?? '8787'}`;
  dataDir = await mkdtemp(join(tmpdir(), 'programrun-quick-start-'));
  // The reader's working directory: inside the repository, where `npx programrun` is found.
  work = await mkdtemp(repositoryFile('tools/docs-tests/.walkthrough-'));
  server = await startServer(
    process.execPath,
    ['--conditions=@programrun/source', '--import', 'tsx', 'examples/node-http/server.ts'],
    {
      cwd: repositoryFile('.'),
      env: { ...configured, PORT: '0', PROGRAMRUN_DATA_DIR: dataDir, PROGRAMRUN_STORE: '' },
      ready: [/Stop with Ctrl-C/],
    },
  );
  const base = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())![1]!;
  const script = [
    'set -euo pipefail',
    ...runs.flatMap((step, index) => [
      `printf '\\n@@step ${index}@@\\n'`,
      step.block.code.replaceAll(guideBase, base),
      `printf '\\n@@done ${index}@@\\n'`,
    ]),
  ].join('\n');
  result = await runCommand('bash', ['--noprofile', '--norc'], {
    cwd: work,
    env: { ...userEnvironment(), NO_COLOR: '1' },
    input: script,
    timeoutMs: 240_000,
  });
  for (const [index, step] of runs.entries()) {
    const match = new RegExp(`@@step ${index}@@\\n([\\s\\S]*?)\\n@@done ${index}@@`).exec(
      result.stdout,
    );
    if (match) outputs.set(step, match[1]!);
  }
  // For writing the guide: DOCS_TEST_OUTPUT=<file> keeps every step's real output there.
  if (process.env.DOCS_TEST_OUTPUT)
    await writeFile(
      process.env.DOCS_TEST_OUTPUT,
      [
        server.output(),
        ...runs.map((step) => `### ${step.where}\n${outputs.get(step) ?? '(not reached)'}`),
      ].join('\n'),
    );
});

afterAll(async () => {
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (work) await rm(work, { recursive: true, force: true });
});

describe(`${GUIDE}, executed`, () => {
  it('starts the server with the README’s first command', () => {
    const readme = codeBlocks(repositoryFile('README.md')).filter(
      (block) => block.language === 'sh',
    );
    expect(servers[0]?.block.code).toBe(readme[0]?.code);
    // The guide shows its data directory where this test has a temporary one.
    const banner = server!.output().replaceAll(dataDir, '/home/you/programrun/.programrun/data');
    for (const step of servers) expect(compareShown(banner, step.shown), step.where).toEqual([]);
  });

  it.each(runs.map((step) => [step.where, step] as const))('%s', (_where, step) => {
    const output = outputs.get(step);
    if (output === undefined) {
      const reached = runs.filter((other) => outputs.has(other)).length;
      const failing = runs[reached];
      throw new Error(
        failing === step
          ? `this step failed (bash exited ${String(result.code)}):\n${result.stdout.split(/@@step \d+@@\n/).at(-1)}\n${result.stderr}`
          : `not reached: ${failing?.where ?? 'an earlier step'} failed`,
      );
    }
    expect(compareShown(output, step.shown), `${step.where} printed:\n${output}`).toEqual([]);
  });

  it('leaves the files a reader makes in the working directory only', async () => {
    // The walkthrough saves the evidence bundle where the reader stands.
    const bundle = JSON.parse(await readFile(join(work, 'bundle.json'), 'utf8')) as {
      payloadType: string;
    };
    expect(bundle.payloadType).toBe('application/vnd.programrun.evidence.v1+json');
  });
});
