import { textProblem, UNSTORABLE_MESSAGES } from '@programrun/engine';
import type { ProblemField } from './errors/http-error.js';

const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** At most this many problems are named in one answer. */
const MAX_PROBLEMS = 20;

const OUT_OF_RANGE =
  'is beyond ±9007199254740991 (2^53 − 1), where JSON numbers lose precision; send it as a string';

/**
 * The values of a parsed JSON body that programrun refuses wherever they appear, with a
 * pointer to each: texts (keys included) holding U+0000 or an unpaired surrogate
 * (`invalid_character`: no store keeps them alike, canonical JSON has no form for a lone
 * surrogate) and numbers beyond ±(2^53 − 1), `1e999` included (`number_out_of_range`:
 * they do not survive parsing exactly).
 */
export function jsonValueProblems(value: unknown): ProblemField[] {
  const problems: ProblemField[] = [];
  const text = (candidate: string, pointer: string): void => {
    const problem = textProblem(candidate);
    if (problem)
      problems.push({ pointer, code: 'invalid_character', message: UNSTORABLE_MESSAGES[problem] });
  };
  const visit = (node: unknown, pointer: string): void => {
    if (problems.length >= MAX_PROBLEMS) return;
    if (typeof node === 'string') text(node, pointer);
    else if (typeof node === 'number') {
      if (!(Math.abs(node) <= Number.MAX_SAFE_INTEGER))
        problems.push({ pointer, code: 'number_out_of_range', message: OUT_OF_RANGE });
    } else if (Array.isArray(node))
      node.forEach((item, index) => visit(item, `${pointer}/${index}`));
    else if (typeof node === 'object' && node !== null) {
      for (const [key, item] of Object.entries(node)) {
        const at = `${pointer}/${escapeToken(key)}`;
        text(key, at);
        visit(item, at);
      }
    }
  };
  visit(value, '');
  return problems.slice(0, MAX_PROBLEMS);
}
