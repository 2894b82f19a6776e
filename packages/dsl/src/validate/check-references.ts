import type { Problem } from '../problem.js';
import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { CompensationStep, StepDefinition } from '../schema/step-schema.js';
import type { YamlSource } from '../source/yaml-source.js';
import { stepsWithPaths } from '../expressions/expression-sites.js';
import { FLOW_ENDINGS } from '../graph/flow-graph.js';

type Path = (string | number)[];
type AnyStep = StepDefinition | CompensationStep;

/** Flow targets of a step with the field they are written in. */
function targetsOf(step: AnyStep): { field: Path; target: string }[] {
  const targets: { field: Path; target: string }[] = [];
  if (step.next !== undefined) targets.push({ field: ['next'], target: step.next });
  if ('max_attempts' in step && step.max_attempts !== undefined) {
    targets.push({ field: ['on_exhausted'], target: step.on_exhausted });
  }
  switch (step.kind) {
    case 'check':
      targets.push({ field: ['on_fail'], target: step.on_fail });
      if (step.review)
        targets.push({ field: ['review', 'on_timeout'], target: step.review.on_timeout });
      break;
    case 'approval':
      targets.push(
        { field: ['on_reject'], target: step.on_reject },
        { field: ['on_timeout'], target: step.on_timeout },
      );
      break;
    case 'handoff':
      targets.push(
        { field: ['on_reject'], target: step.on_reject },
        { field: ['on_fail'], target: step.on_fail },
        { field: ['on_timeout'], target: step.on_timeout },
      );
      break;
    case 'route':
      step.alternatives.forEach((alternative, index) => {
        if (alternative.next !== undefined) {
          targets.push({ field: ['alternatives', index, 'next'], target: alternative.next });
        }
      });
      targets.push({ field: ['on_no_route'], target: step.on_no_route });
      break;
    case 'record':
    case 'wait':
      break;
  }
  return targets;
}

/**
 * Reports names that point nowhere or at the wrong thing: parties, policy rules, flow
 * targets, compensations, controls; and check steps gating `review` rules without reviewers.
 */
export function checkReferences(scenario: ScenarioDefinition, source: YamlSource): Problem[] {
  const problems: Problem[] = [];
  const parties = scenario.parties;
  const partyList = Object.keys(parties).join(', ') || '(none)';
  const rules = new Map(scenario.policy.map((rule) => [rule.id, rule]));
  const mainSteps = new Set(scenario.stages.flatMap((stage) => stage.steps.map((step) => step.id)));
  const compensationSteps = new Set(scenario.compensations.map((step) => step.id));

  const checkParty = (party: string, path: Path, appointedOnly: boolean): void => {
    const definition = parties[party];
    if (!definition) {
      problems.push(
        source.problemAt(
          'unknown_party',
          `party "${party}" is not declared under parties (${partyList})`,
          path,
        ),
      );
    } else if (appointedOnly && definition.kind !== 'appointed') {
      problems.push(
        source.problemAt(
          'invalid_party_kind',
          `handoffs go to appointed parties; "${party}" is ${definition.kind}`,
          path,
        ),
      );
    }
  };

  for (const { step, path } of stepsWithPaths(scenario)) {
    const isCompensation = path[0] === 'compensations';
    if (
      step.pivot &&
      (isCompensation || (step.kind === 'handoff' && step.compensate !== undefined))
    ) {
      problems.push(
        source.problemAt(
          'invalid_compensation',
          isCompensation
            ? 'a compensation cannot be a pivot'
            : 'a pivot is the point of no return; it cannot name a compensation',
          [...path, 'pivot'],
        ),
      );
    }
    if (isCompensation && step.when !== undefined) {
      problems.push(
        source.problemAt(
          'invalid_compensation',
          'compensations always run once registered; remove when',
          [...path, 'when'],
        ),
      );
    }
    if ('party' in step && step.party !== undefined)
      checkParty(step.party, [...path, 'party'], step.kind === 'handoff');
    if (step.kind === 'approval') {
      step.approvers.forEach((party, index) =>
        checkParty(party, [...path, 'approvers', index], false),
      );
    }
    if (step.kind === 'check') {
      step.review?.approvers.forEach((party, index) =>
        checkParty(party, [...path, 'review', 'approvers', index], false),
      );
      step.rules.forEach((ruleId, index) => {
        if (!rules.has(ruleId)) {
          problems.push(
            source.problemAt(
              'dangling_reference',
              `policy rule "${ruleId}" is not declared under policy`,
              [...path, 'rules', index],
            ),
          );
        }
      });
      const reviewed = step.rules.filter((ruleId) => rules.get(ruleId)?.otherwise === 'review');
      if (reviewed.length > 0 && !step.review) {
        problems.push(
          source.problemAt(
            'review_required',
            `rule(s) ${reviewed.join(', ')} can end in review; add review: { approvers, expires } to "${step.id}"`,
            [...path, 'rules'],
          ),
        );
      }
    }
    if (step.kind === 'handoff' && step.compensate !== undefined) {
      if (isCompensation) {
        problems.push(
          source.problemAt(
            'invalid_compensation',
            'a compensation cannot itself name a compensation',
            [...path, 'compensate'],
          ),
        );
      } else if (!compensationSteps.has(step.compensate)) {
        problems.push(
          source.problemAt(
            'dangling_reference',
            `compensation "${step.compensate}" is not declared under compensations`,
            [...path, 'compensate'],
          ),
        );
      }
    }
    for (const { field, target } of targetsOf(step)) {
      const targetPath = [...path, ...field];
      if (isCompensation) {
        if (target !== 'fault') {
          problems.push(
            source.problemAt(
              'invalid_compensation',
              'compensations cannot branch; a failed compensation faults the run for manual repair',
              targetPath,
            ),
          );
        }
        continue;
      }
      if (FLOW_ENDINGS.has(target) || mainSteps.has(target)) continue;
      const reason = compensationSteps.has(target)
        ? `"${target}" is a compensation; compensations run only through compensate`
        : `step "${target}" does not exist (use fault, compensate, cancel, complete or a step id)`;
      problems.push(source.problemAt('dangling_reference', reason, targetPath));
    }
  }

  scenario.controls.forEach((control, index) => {
    if (!mainSteps.has(control.step)) {
      problems.push(
        source.problemAt(
          'dangling_reference',
          `control "${control.id}" names unknown step "${control.step}"`,
          ['controls', index, 'step'],
        ),
      );
    }
  });
  return problems;
}
