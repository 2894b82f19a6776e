import { readFile } from 'node:fs/promises';
import {
  parseStrictJson,
  verifyEvidence,
  type EvidenceVerification,
  type Jwks,
} from '@programrun/evidence';

/** Where the CLI writes. */
export interface Output {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** Exit codes: 0 verified, 1 verification failed, 2 could not run (usage, unreadable input). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

class UsageError extends Error {}

async function readJwks(source: string): Promise<Jwks> {
  let text: string;
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source, {
      headers: { accept: 'application/jwk-set+json, application/json' },
    });
    if (!response.ok) throw new UsageError(`could not fetch ${source}: HTTP ${response.status}`);
    text = await response.text();
  } else {
    text = await readFile(source, 'utf8').catch(() => {
      throw new UsageError(`cannot read the JWKS file ${source}`);
    });
  }
  const jwks = parseStrictJson(text) as Partial<Jwks> | null;
  if (!Array.isArray(jwks?.keys)) throw new UsageError(`${source} is not a JWKS (no "keys" list)`);
  return jwks as Jwks;
}

/**
 * `title (status code)` when the text is an RFC 9457 problem document (an error answer saved
 * in place of the bundle, e.g. by `curl -s … > bundle.json`), else null.
 */
function problemDocument(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, title, status, code } = value as Record<string, unknown>;
  if (typeof type !== 'string' || typeof title !== 'string' || typeof status !== 'number')
    return null;
  return `${title} (${status}${typeof code === 'string' ? ` ${code}` : ''})`;
}

const time = (value: string | null): string => value ?? '—';
const text = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** The human summary of a verified (or partly verified) bundle. */
function summary(result: EvidenceVerification): string[] {
  const bundle = result.bundle;
  if (!bundle) return [];
  const { run } = bundle;
  const lines = [
    '',
    `Run       ${run.id} (${run.livemode ? 'live' : 'test'})`,
    `Scenario  ${run.scenario_id}  ${run.scenario_digest}`,
    `Status    ${run.status}${run.outcome ? ` — ${text(run.outcome.reason)}${run.outcome.step ? ` at ${text(run.outcome.step)}` : ''}` : ''}`,
    `Created   ${run.created_at}   completed ${time(run.completed_at)}`,
    '',
    'Parties',
    ...bundle.parties.map(
      (party) =>
        `  ${party.id.padEnd(24)} ${party.role.padEnd(16)} ${party.name} (${party.status})`,
    ),
    '',
    'Stages',
    ...bundle.stages.map(
      (stage) =>
        `  ${stage.id.padEnd(24)} ${stage.status.padEnd(10)} ${time(stage.started_at)} → ${time(stage.completed_at)}`,
    ),
  ];
  return lines;
}

/**
 * `programrun verify <bundle.json> --jwks <keys.json|url>`: verifies an exported evidence
 * envelope offline and prints each check, then a summary of the run. Returns the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await verifyCommand(['bundle.json', '--jwks', 'keys.json'], { out: console.log, err: console.error });
 * ```
 */
export async function verifyCommand(argv: readonly string[], output: Output): Promise<number> {
  try {
    const files: string[] = [];
    let jwksSource: string | undefined;
    for (let index = 0; index < argv.length; index += 1) {
      const argument = argv[index]!;
      if (argument === '--jwks') jwksSource = argv[(index += 1)];
      else if (argument.startsWith('--jwks=')) jwksSource = argument.slice('--jwks='.length);
      else if (argument.startsWith('-')) throw new UsageError(`unknown option ${argument}`);
      else files.push(argument);
    }
    if (files.length !== 1 || !jwksSource)
      throw new UsageError('usage: programrun verify <bundle.json> --jwks <keys.json|url>');
    const jwks = await readJwks(jwksSource);
    const bundleText = await readFile(files[0]!, 'utf8').catch(() => {
      throw new UsageError(`cannot read ${files[0]!}`);
    });
    const problem = problemDocument(bundleText);
    if (problem)
      throw new UsageError(
        `${files[0]!} is a problem document, not an evidence envelope: ${problem} (the export was refused; fix that and export again)`,
      );
    const result = verifyEvidence(bundleText, jwks);
    for (const check of result.checks)
      output.out(`${check.ok ? '✓' : '✗'} ${check.name.padEnd(10)} ${check.detail}`);
    for (const line of summary(result)) output.out(line);
    if (!result.ok) {
      output.err(
        `verification failed at ${result.failure?.name ?? 'an early check'}: ${result.failure?.detail ?? 'unreadable'}`,
      );
      return EXIT.failed;
    }
    output.out('');
    output.out('Evidence verified.');
    return EXIT.ok;
  } catch (error) {
    output.err(`programrun verify: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.usage;
  }
}
