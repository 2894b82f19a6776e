import { readFile } from 'node:fs/promises';
import {
  parseStrictJson,
  verificationReport,
  verifyEvidence,
  type Jwks,
} from '@programrun/evidence';
import { parseOptions, requireOption } from '../parse-options.js';
import { UsageError } from '../usage-error.js';
import {
  EXPECTATION_OPTIONS,
  EXPECTATION_USAGE,
  expectationsOf,
} from '../verify/expectation-options.js';

/** Where the CLI writes. */
export interface Output {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** Exit codes: 0 verified, 1 verification failed, 2 could not run (usage, unreadable input). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** The usage of `programrun verify`. */
export const VERIFY_USAGE = `usage: programrun verify <bundle.json> --jwks <keys.json|url> ${EXPECTATION_USAGE}`;

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

/**
 * `programrun verify <bundle.json> --jwks <keys.json|url>`: verifies an exported evidence
 * envelope offline and prints each check, then a summary of the run. `--run`, `--env`,
 * `--scenario`, `--scenario-digest` and `--kid` pin what the evidence must be about: a valid
 * bundle of another run, environment, scenario or key fails. On any failure it prints only
 * the reason, on one line, and nothing read from the bundle. Returns the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await verifyCommand(['bundle.json', '--jwks', 'keys.json', '--env', 'live'], { out: console.log, err: console.error });
 * ```
 */
export async function verifyCommand(argv: readonly string[], output: Output): Promise<number> {
  try {
    const { values, positionals: files } = parseOptions(argv, {
      jwks: { type: 'string' },
      ...EXPECTATION_OPTIONS,
    });
    if (files.length !== 1 || values.jwks === undefined) throw new UsageError(VERIFY_USAGE);
    const jwksSource = requireOption(values, 'jwks');
    const expect = expectationsOf(values);
    const jwks = await readJwks(jwksSource);
    const bundleText = await readFile(files[0]!, 'utf8').catch(() => {
      throw new UsageError(`cannot read ${files[0]!}`);
    });
    const problem = problemDocument(bundleText);
    if (problem)
      throw new UsageError(
        `${files[0]!} is a problem document, not an evidence envelope: ${problem} (the export was refused; fix that and export again)`,
      );
    // The words are the library's, so that the run console shows exactly these lines.
    const report = verificationReport(verifyEvidence(bundleText, jwks, { expect }));
    for (const line of report.lines) (report.ok ? output.out : output.err)(line);
    return report.ok ? EXIT.ok : EXIT.failed;
  } catch (error) {
    output.err(`programrun verify: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.usage;
  }
}
