import type { Problem } from '../problem.js';
import { regexRefusal } from '../regex/re2.js';
import { schemaPatterns } from '../inputs/schema-patterns.js';
import type { YamlSource } from '../source/yaml-source.js';

/**
 * Every `pattern` and `patternProperties` key of the input schema RE2 refuses
 * (lookaround, backreferences, ECMAScript-only escapes, bad syntax), as an
 * `unsupported_regex` problem pointing at the culprit inside the pattern.
 */
export function checkInputPatterns(
  schema: Readonly<Record<string, unknown>>,
  source: YamlSource,
): Problem[] {
  return schemaPatterns(schema).flatMap(({ pattern, path, isKey }) => {
    const refusal = regexRefusal(pattern);
    if (!refusal) return [];
    const where = ['inputs', ...path];
    const position = isKey
      ? source.locateInKey(where, refusal.offset)
      : source.locateInScalar(where, refusal.offset);
    return [
      source.problemAt(
        'unsupported_regex',
        `pattern ${JSON.stringify(pattern)} ${refusal.message}`,
        where,
        position,
      ),
    ];
  });
}
