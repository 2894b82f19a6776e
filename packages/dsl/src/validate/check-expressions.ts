import type { Problem } from '../problem.js';
import type { YamlSource } from '../source/yaml-source.js';
import type { ExpressionSite } from '../expressions/expression-sites.js';
import { safeCheck } from '../expressions/scenario-environment.js';
import type { Environment } from '@marcbachmann/cel-js';

/**
 * Type-checks every CEL expression against the scenario's environment; conditions must
 * be `bool`. Problems point at the offending character inside the YAML scalar.
 */
export function checkExpressions(
  sites: readonly ExpressionSite[],
  environment: Environment,
  source: YamlSource,
): Problem[] {
  const problems: Problem[] = [];
  for (const site of sites) {
    const result = safeCheck(environment, site.source);
    if (!result.valid) {
      problems.push(
        source.problemAt(
          'invalid_expression',
          result.message,
          site.path,
          source.locateInScalar(site.path, result.offset),
        ),
      );
    } else if (site.expects === 'bool' && result.type !== 'bool' && result.type !== 'dyn') {
      problems.push(
        source.problemAt(
          'invalid_expression',
          `condition must be a bool, but this is ${result.type}`,
          site.path,
        ),
      );
    }
  }
  return problems;
}
