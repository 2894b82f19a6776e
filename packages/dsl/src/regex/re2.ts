import { RE2JS, RE2JSSyntaxException } from 're2js';

/**
 * Why a pattern is refused, as a phrase that follows the pattern ("uses lookahead…", "is
 * not a valid RE2 regular expression: …"), and the offset of the culprit inside it.
 */
export interface RegexRefusal {
  readonly message: string;
  readonly offset: number;
}

/** Thrown by {@link compileRegex} for a pattern RE2 does not accept; `message` says why. */
export class RegexSyntaxError extends Error {
  /** Offset of the culprit inside the pattern. */
  readonly offset: number;
  constructor(refusal: RegexRefusal) {
    super(refusal.message);
    this.offset = refusal.offset;
  }
}

/** Constructs RE2 leaves out on purpose (they need backtracking), said plainly. */
const UNSUPPORTED: readonly { readonly prefix: RegExp; readonly what: string }[] = [
  { prefix: /^\(\?=/, what: 'lookahead `(?=…)`' },
  { prefix: /^\(\?!/, what: 'negative lookahead `(?!…)`' },
  { prefix: /^\(\?<=/, what: 'lookbehind `(?<=…)`' },
  { prefix: /^\(\?<!/, what: 'negative lookbehind `(?<!…)`' },
  { prefix: /^\\[1-9]/, what: 'backreference `\\N`' },
  { prefix: /^\\k/, what: 'named backreference `\\k<name>`' },
];

function explain(pattern: string, error: RE2JSSyntaxException): RegexRefusal {
  const fragment = error.input ?? '';
  const found = fragment === '' ? -1 : pattern.indexOf(fragment);
  const offset = Math.max(found, 0);
  const rest = pattern.slice(offset);
  const unsupported = UNSUPPORTED.find(({ prefix }) => prefix.test(rest));
  if (unsupported) {
    return {
      message: `uses ${unsupported.what}, which the RE2 dialect does not have (no lookaround, no backreferences: matching always takes linear time)`,
      offset,
    };
  }
  if (rest.startsWith('\\u')) {
    return {
      message:
        'uses the ECMAScript escape `\\u`; the RE2 dialect writes a code point as `\\x{00E9}`',
      offset,
    };
  }
  return {
    message: `is not a valid RE2 regular expression: ${error.error}${fragment ? ` \`${fragment}\`` : ''}`,
    offset,
  };
}

/**
 * Why `pattern` is not a regular expression of the RE2 dialect, or `null` when it is.
 */
export function regexRefusal(pattern: string): RegexRefusal | null {
  try {
    compileRegex(pattern);
    return null;
  } catch (error) {
    if (error instanceof RegexSyntaxError) return { message: error.message, offset: error.offset };
    throw error;
  }
}

const MAX_CACHED = 512;
const cache = new Map<string, RE2JS>();

/**
 * Compiles `pattern` with RE2 semantics (linear-time matching: no backtracking, so no
 * pattern and input can make a match slow). Compiled patterns are cached. Throws
 * {@link RegexSyntaxError} for syntax RE2 does not accept, such as lookaround or
 * backreferences.
 */
export function compileRegex(pattern: string): RE2JS {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) throw new RegexSyntaxError(explain(pattern, error));
    throw new RegexSyntaxError({
      message: `is not a valid RE2 regular expression: ${error instanceof Error ? error.message : String(error)}`,
      offset: 0,
    });
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(pattern, compiled);
  return compiled;
}
