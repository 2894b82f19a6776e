// PROGRAMRUN_PARTNERS: the file that tells the reference server how to reach each appointed
// party in live (party → { url, secret, concurrency, rate }). Read and checked once at start:
// any problem is one line naming the file and the JSON pointer of what is wrong.
import { readFile } from 'node:fs/promises';
import { checkEndpointUrl } from '@programrun/engine';
import { parseStrictJson, StrictJsonError } from '@programrun/evidence';
import { z } from 'zod';
import { UsageError } from '../usage-error.js';

/** The variable that names the partners file. */
export const PARTNERS_VARIABLE = 'PROGRAMRUN_PARTNERS';

const partySchema = z.strictObject(
  {
    url: z.string().min(1, 'must be the partner endpoint URL'),
    secret: z
      .string()
      .regex(
        /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/,
        'must be a whsec_ secret (whsec_ + base64 of at least 24 bytes)',
      ),
    concurrency: z
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(1_000, 'must be at most 1000')
      .optional(),
    rate: z
      .number('must be a number of calls per second')
      .positive('must be more than 0 calls per second')
      .max(100_000, 'must be at most 100000 calls per second')
      .optional(),
    maxPerAccount: z.int('must be a whole number').min(1, 'must be at least 1').optional(),
    timeoutMs: z
      .int('must be a whole number of milliseconds')
      .min(100, 'must be at least 100')
      .max(600_000, 'must be at most 600000')
      .optional(),
    allowLoopback: z.boolean('must be true or false').optional(),
  },
  'must be an object { url, secret, concurrency?, rate?, … }',
);

const partnersSchema = z.record(
  z.string().regex(/^[a-z][a-z0-9_]{0,62}$/),
  partySchema,
  'must be an object of party id → { url, secret, concurrency, rate }',
);

/**
 * How the reference server reaches one appointed party in live: the HTTP connector's
 * endpoint and signing secret, and the party's flow-control limits.
 */
export type PartnerSettings = z.output<typeof partySchema>;

/** Every configured party, by party id. */
export type PartnersFile = Readonly<Record<string, PartnerSettings>>;

/** An RFC 6901 JSON pointer of a path. */
function pointerOf(path: readonly PropertyKey[]): string {
  return path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The first problem of a failed parse, as `<pointer>: <message>`. */
function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    return `${pointerOf([...issue.path, issue.keys[0]!])}: unknown field (known: url, secret, concurrency, rate, maxPerAccount, timeoutMs, allowLoopback)`;
  }
  if (issue.code === 'invalid_key') {
    return `${pointerOf(issue.path)}: is not a party id (snake_case, at most 63 characters)`;
  }
  const message =
    issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
  return `${pointerOf(issue.path) || '/'}: ${message}`;
}

/**
 * Checks the partners file's JSON: each party's settings, and that its URL passes the same
 * address rule as webhook endpoints in live (https, a public host; loopback only with
 * `allowLoopback: true`). Throws a one-line `UsageError` naming `file` and the pointer.
 */
export function parsePartners(value: unknown, file: string): PartnersFile {
  const origin = `${PARTNERS_VARIABLE} ${file}`;
  const parsed = partnersSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw new UsageError(`${origin}: ${firstProblem(parsed.error)}`);
  for (const [party, settings] of Object.entries(parsed.data)) {
    const allowLoopback = settings.allowLoopback === true;
    const check = checkEndpointUrl(settings.url, { environment: 'live', allowLoopback });
    if (!check.ok) {
      // Refused only for being loopback: say how a development setup allows it.
      const loopback =
        !allowLoopback &&
        checkEndpointUrl(settings.url, { environment: 'live', allowLoopback: true }).ok
          ? ' (set "allowLoopback": true for a partner on this machine)'
          : '';
      const message = check.message.replace('The endpoint URL', 'The partner URL');
      throw new UsageError(`${origin}: ${pointerOf([party, 'url'])}: ${message}${loopback}`);
    }
  }
  return parsed.data;
}

/**
 * Reads and checks the file PROGRAMRUN_PARTNERS names ({@link parsePartners}); null when
 * the variable is unset or empty. An unreadable file, text that is not JSON (or names a key
 * twice) or bad settings are one-line `UsageError`s naming the file.
 */
export async function readPartnersFile(
  environment: Readonly<Record<string, string | undefined>>,
): Promise<PartnersFile | null> {
  const file = environment[PARTNERS_VARIABLE];
  if (!file) return null;
  const origin = `${PARTNERS_VARIABLE} ${file}`;
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `${origin}: cannot read it (${error.code === 'ENOENT' ? 'no such file' : (error.code ?? error.message)})`,
    );
  });
  let value: unknown;
  try {
    value = parseStrictJson(text);
  } catch (error) {
    if (!(error instanceof StrictJsonError)) throw error;
    const where = error.problem === 'duplicate_key' ? `${error.pointer || '/'}: ` : '';
    throw new UsageError(`${origin}: ${where}${error.message}`);
  }
  return parsePartners(value, file);
}
