import type { Environment } from '@marcbachmann/cel-js';
import type { Problem } from '../problem.js';
import type { YamlSource } from '../source/yaml-source.js';
import type { ExpressionSite } from '../expressions/expression-sites.js';
import { allNodes, methodCall, parseExpression, type CelNode } from '../expressions/cel-ast.js';
import { regexRefusal } from '../regex/re2.js';

/** Offset of a string literal's first character, when the literal is written plainly. */
function contentOffset(literal: CelNode, value: string): number | undefined {
  const raw = literal.input.slice(literal.start, literal.end);
  const opening = /^[rR]?("""|'''|"|')/.exec(raw);
  if (!opening) return undefined;
  const content = raw.slice(opening[0].length, raw.length - opening[1]!.length);
  return content === value ? opening[0].length : undefined;
}

/**
 * Every literal `matches()` pattern RE2 refuses (lookaround, backreferences…), as an
 * `unsupported_regex` problem pointing at the culprit inside the expression. Patterns
 * computed at run time are checked when evaluated (an `expression_error`).
 */
export function checkExpressionRegexes(
  sites: readonly ExpressionSite[],
  environment: Environment,
  source: YamlSource,
): Problem[] {
  return sites.flatMap((site) => {
    const root = parseExpression(environment, site.source);
    if (!root) return []; // a syntax error is already an invalid_expression problem
    return allNodes(root).flatMap((node) => {
      const call = methodCall(node);
      const literal = call?.name === 'matches' && call.args.length === 1 ? call.args[0] : undefined;
      if (!literal || literal.op !== 'value' || typeof literal.args !== 'string') return [];
      const refusal = regexRefusal(literal.args);
      if (!refusal) return [];
      const inside = contentOffset(literal, literal.args);
      const offset = literal.start + (inside === undefined ? 0 : inside + refusal.offset);
      return [
        source.problemAt(
          'unsupported_regex',
          `matches() pattern ${JSON.stringify(literal.args)} ${refusal.message}`,
          site.path,
          source.locateInScalar(site.path, offset),
        ),
      ];
    });
  });
}
