// checkUpgrade: a safe move of bank-payout@v1's waiting runs to a v2 that screens the
// beneficiary again before the payout, and a corpus of unsafe upgrades, each refused with
// its code, position and counterexample.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkUpgrade, formatProblem, type UpgradeFile } from '../src/index.js';
import { catalogueUpgrades } from './fixtures/upgrades/catalogue-upgrades.js';

const read = (url: URL): string => readFileSync(url, 'utf8');
const V1_FILE = 'scenarios/bank-payout@v1.yaml';
const V1 = read(new URL('../../../scenarios/bank-payout@v1.yaml', import.meta.url));
const V2 = read(new URL('./fixtures/upgrades/bank-payout@v2.yaml', import.meta.url));
const MIGRATION = read(new URL('./fixtures/upgrades/bank-payout@v1-to-v2.yaml', import.meta.url));
/** v2 with a new required input, `purpose_code`, and the migration that gives it. */
const PURPOSE = new URL('./fixtures/upgrades/purpose-code/', import.meta.url);
const PURPOSE_V2 = read(new URL('bank-payout@v2.yaml', PURPOSE));
const PURPOSE_MIGRATION = read(new URL('bank-payout@v1-to-v2.yaml', PURPOSE));

const v1: UpgradeFile = { text: V1, file: V1_FILE };
const v2 = (text = V2): UpgradeFile => ({ text, file: 'scenarios/bank-payout@v2.yaml' });
const migration = (text: string): UpgradeFile => ({
  text,
  file: 'scenarios/bank-payout@v1-to-v2.yaml',
});

/** `text` with each `[find, replacement]` applied once; each `find` must be there. */
function edited(text: string, ...edits: [string, string][]): string {
  return edits.reduce((current, [find, replacement]) => {
    if (!current.includes(find)) throw new Error(`not in the text: ${find}`);
    return current.replace(find, replacement);
  }, text);
}

/** v1 itself as v2 (same steps), with edits. */
const v1AsV2 = (...edits: [string, string][]): string =>
  edited(V1, ['version: v1', 'version: v2'], ...edits);
const MIGRATION_HEAD = 'scenario: bank-payout\nfrom: v1\nto: v2\n';

/** v1 as v2 whose release waits `expires` for its checkers (v1: PT8H). */
const withReleaseExpiry = (expires: string): string =>
  v1AsV2([
    '        maker_checker: true\n        expires: PT8H\n',
    `        maker_checker: true\n        expires: ${expires}\n`,
  ]);
const NEW_RELEASE_DEADLINE = `${MIGRATION_HEAD}deadlines:\n  release_approval: new_version\n`;
/** v1 as v2 with its safeguarding bank renamed (a new name for the same partner). */
const withCustodian = (): string =>
  v1AsV2().replaceAll('safeguarding_bank', 'safeguarding_custodian');
/** A migration giving moved runs the new `purpose_code` by `expression`. */
const givingPurposeCode = (expression: string): string =>
  `${MIGRATION_HEAD}context:\n  inputs:\n    purpose_code: ${JSON.stringify(expression)}\n`;

describe('checkUpgrade', () => {
  it('moves every waiting run of bank-payout@v1 to v2, but the payouts already sent', () => {
    const report = checkUpgrade(v1, v2(), migration(MIGRATION));
    expect(report.problems.map(formatProblem)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.from).toBe('bank-payout@v1');
    expect(report.to).toBe('bank-payout@v2');
    expect(report.states.map(({ state, mapsTo, stays }) => [state, mapsTo ?? stays])).toEqual([
      ['payout_limits', 'payout_limits'],
      ['hold_funds', 'hold_funds'],
      ['screen_beneficiary', 'screen_beneficiary'],
      ['verify_payee', 'verify_payee'],
      ['screening_gate', 'screening_gate'],
      ['submit_instruction', 'submit_instruction'],
      ['release_approval', 'release_approval'],
      ['execute_payout', true],
      ['confirm_credit', true],
      ['credit_gate', true],
    ]);
  });

  it('gives moved runs an input the new version requires, by a CEL expression over the old run', () => {
    const report = checkUpgrade(v1, v2(PURPOSE_V2), migration(PURPOSE_MIGRATION));
    expect(report.problems.map(formatProblem)).toEqual([]);
    expect(report.inputs).toEqual({
      purpose_code: "handoffs.verify_payee.data.name_match == 'match' ? 'SUPP' : 'OTHR'",
    });
    expect(report.states.filter((state) => state.stays).map(({ state }) => state)).toEqual([
      'payout_limits',
      'hold_funds',
      'screen_beneficiary',
      'verify_payee',
    ]);
  });

  it('moves a run waiting on a partner that only changed name, by a party rename', () => {
    const report = checkUpgrade(
      v1,
      v2(withCustodian()),
      migration(
        `${MIGRATION_HEAD}renames:\n  parties:\n    safeguarding_bank: safeguarding_custodian\n`,
      ),
    );
    expect(report.problems.map(formatProblem)).toEqual([]);
    expect(report.parties).toEqual({ safeguarding_bank: 'safeguarding_custodian' });
    expect(report.states.find(({ state }) => state === 'hold_funds')?.mapsTo).toBe('hold_funds');
  });

  it("gives runs waiting for their release the new version's longer expiry, when the migration says so", () => {
    const report = checkUpgrade(v1, v2(withReleaseExpiry('P1D')), migration(NEW_RELEASE_DEADLINE));
    expect(report.problems.map(formatProblem)).toEqual([]);
    const moved = report.states.filter((state) => state.deadline);
    expect(moved).toEqual([
      expect.objectContaining({
        state: 'release_approval',
        deadline: { kind: 'expiry', from: 'PT8H', to: 'P1D' },
      }),
    ]);
    // Without the entry, waiting runs keep their deadlines.
    const kept = checkUpgrade(v1, v2(withReleaseExpiry('P1D')));
    expect(kept.states.some((state) => state.deadline)).toBe(false);
  });

  it('needs no migration file for a version that only adds a step later in the flow', () => {
    const report = checkUpgrade(v1, v2(v1AsV2()));
    expect(report.ok, report.problems.map(formatProblem).join('\n')).toBe(true);
  });

  // The corpus: what an operator or author gets wrong, and what refuses it.
  const unsafe: {
    name: string;
    to?: string;
    migration?: string;
    code: string;
    at: string;
    says: string;
  }[] = [
    {
      name: 'an inserted re-screening breaks the precedence for payouts already sent',
      code: 'upgrade_invariant_violated',
      at: 'scenarios/bank-payout@v2.yaml:184:5',
      says: 'breaks for runs waiting at "execute_payout" (payout_limits → hold_funds → hold_gate → screen_beneficiary → verify_payee → screening_gate → submit_instruction → release_approval → select_rail → execute_payout): "execute_payout" has started and "rescreen_gate" has not completed',
    },
    {
      name: 'a mapping sends waiting reviews back to the limits review, which holds the funds again',
      to: v1AsV2(),
      migration: `${MIGRATION_HEAD}states:\n  screening_gate: payout_limits\n`,
      code: 'upgrade_rerequests_handoff',
      at: 'scenarios/bank-payout@v2.yaml:',
      says: 'runs waiting at "screening_gate" may have had "hold_funds" confirmed',
    },
    {
      name: 'a mapping drops a pending approval by sending it to a check',
      to: v1AsV2(),
      migration: `${MIGRATION_HEAD}states:\n  release_approval: screening_gate\n`,
      code: 'upgrade_state_mismatch',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:5:',
      says: 'would wait at check "screening_gate" in bank-payout@v2, and the pending approval would be dropped',
    },
    {
      name: 'a pending payee check mapped to the screening provider',
      to: v1AsV2(),
      migration: `${MIGRATION_HEAD}states:\n  verify_payee: screen_beneficiary\n`,
      code: 'upgrade_state_mismatch',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:5:',
      says: 'asked payout_bank for payee.verify; "screen_beneficiary" in bank-payout@v2 asks screening_provider for beneficiary.screen',
    },
    {
      name: 'a waiting handoff renamed: its partner would get the request again under a new key',
      to: v1AsV2(
        ['      - id: verify_payee\n', '      - id: confirm_payee\n'],
        ['handoffs.verify_payee.', 'handoffs.confirm_payee.'],
        ['    step: verify_payee', '    step: confirm_payee'],
      ),
      migration: `${MIGRATION_HEAD}renames:\n  steps:\n    verify_payee: confirm_payee\n`,
      code: 'upgrade_rerequests_handoff',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:6:',
      says: 'waiting at "confirm_payee" would send the request again under a new key',
    },
    {
      name: "the hold's release renamed without a rename entry",
      to: v1AsV2(
        ['compensate: release_hold', 'compensate: unhold_funds'],
        ['  - id: release_hold\n', '  - id: unhold_funds\n'],
        ['released_by: [release_hold]', 'released_by: [unhold_funds]'],
        ['    step: release_hold\n', '    step: unhold_funds\n'],
        ['    step: release_hold\n', '    step: unhold_funds\n'],
      ),
      code: 'upgrade_compensation_removed',
      at: `${V1_FILE}:`,
      says: 'may have registered compensation "release_hold" (by completing "hold_funds"), which bank-payout@v2 does not have',
    },
    {
      name: 'the hold posted at the gate instead of at the hold',
      to: v1AsV2(
        [
          '  - id: hold_debit_available\n    step: hold_funds',
          '  - id: hold_debit_available\n    step: hold_gate',
        ],
        [
          '  - id: hold_credit_held\n    step: hold_funds',
          '  - id: hold_credit_held\n    step: hold_gate',
        ],
      ),
      code: 'upgrade_posted_legs_changed',
      at: `${V1_FILE}:`,
      says: 'may have posted the legs of "hold_funds" as bank-payout@v1 values them',
    },
    {
      name: "the maker's step removed with runs waiting at it",
      to: v1AsV2(
        [
          'before: [hold_funds, screening_gate, submit_instruction, release_approval]',
          'before: [hold_funds, screening_gate, release_approval]',
        ],
        [
          '      - id: submit_instruction\n',
          '      - id: submit_instruction_removed\n        when: "false"\n',
        ],
      ),
      code: 'upgrade_unmapped_state',
      at: `${V1_FILE}:275:`,
      says: 'runs waiting at "submit_instruction"',
    },
    {
      name: 'a new screening inserted before the release, whose case a later record reads',
      to: v1AsV2(
        [
          '      - id: submit_instruction\n',
          [
            '      - id: rescreen_beneficiary',
            '        kind: handoff',
            '        title: Screen the beneficiary again',
            '        party: screening_provider',
            '        action: beneficiary.screen',
            '        timeout: PT15M',
            '        on_reject: compensate',
            '        on_fail: compensate',
            '        on_timeout: compensate',
            '      - id: submit_instruction',
            '',
          ].join('\n'),
        ],
        [
          '          credited_amount: handoffs.confirm_credit.data.credited_amount\n',
          '          credited_amount: handoffs.confirm_credit.data.credited_amount\n          rescreening: handoffs.rescreen_beneficiary.reference\n',
        ],
      ),
      code: 'upgrade_missing_data',
      at: 'scenarios/bank-payout@v2.yaml:',
      says: 'runs waiting at "submit_instruction" (payout_limits → hold_funds → hold_gate → screen_beneficiary → verify_payee → screening_gate → submit_instruction) never ran "rescreen_beneficiary", new in bank-payout@v2, and "record_payout" reads its result: submit_instruction → release_approval → select_rail → execute_payout',
    },
    {
      name: 'a mapping to a step v2 does not have',
      to: v1AsV2(),
      migration: `${MIGRATION_HEAD}states:\n  release_approval: release_payout\n`,
      code: 'upgrade_unknown_step',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:5:',
      says: '"release_payout" is not a step of bank-payout@v2',
    },
    {
      name: 'a migration written for other versions',
      to: v1AsV2(),
      migration: 'scenario: bank-payout\nfrom: v2\nto: v3\n',
      code: 'upgrade_unknown_step',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:2:',
      says: 'the migration moves v2 to v3, not v1 to v2',
    },
    {
      name: 'a migration that keeps only the payout step moves runs whose payout was sent, screened once',
      migration: `${MIGRATION_HEAD}stay: [execute_payout]\n`,
      code: 'upgrade_invariant_violated',
      at: 'scenarios/bank-payout@v2.yaml:184:5',
      says: 'breaks for runs waiting at "confirm_credit" (payout_limits → hold_funds → hold_gate → screen_beneficiary → verify_payee → screening_gate → submit_instruction → release_approval → select_rail → execute_payout → confirm_credit): "execute_payout" may have completed before "rescreen_gate" completed, on a path to it',
    },
    {
      name: 'a partner renamed without a rename entry: the waiting hold would be asked of another party',
      to: withCustodian(),
      code: 'upgrade_state_mismatch',
      at: 'scenarios/bank-payout@v2.yaml:',
      says: 'asked safeguarding_bank for ledger.hold; "hold_funds" in bank-payout@v2 asks safeguarding_custodian for ledger.hold',
    },
    {
      name: 'a party rename naming a partner the old version does not have',
      to: withCustodian(),
      migration: `${MIGRATION_HEAD}renames:\n  parties:\n    safeguarding: safeguarding_custodian\n`,
      code: 'upgrade_unknown_party',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:6:',
      says: '"safeguarding" is not a party of bank-payout@v1',
    },
    {
      name: 'a shortened release expiry given to runs already waiting: one waiting longer would be due in the past',
      to: withReleaseExpiry('PT1H'),
      migration: NEW_RELEASE_DEADLINE,
      code: 'upgrade_deadline_shortened',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:5:',
      says: 'runs waiting at "release_approval" (payout_limits → hold_funds → hold_gate → screen_beneficiary → verify_payee → screening_gate → submit_instruction → release_approval) have PT8H on bank-payout@v1; counted from when they started waiting, bank-payout@v2\'s PT1H would put the deadline of one that has waited longer in the past',
    },
    {
      name: 'a deadline moved for a step the old version does not have',
      to: v1AsV2(),
      migration: `${MIGRATION_HEAD}deadlines:\n  release: new_version\n`,
      code: 'upgrade_unknown_step',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:5:',
      says: '"release" is not a step of bank-payout@v1',
    },
    {
      name: 'a new required input that runs in flight were never given',
      to: PURPOSE_V2,
      code: 'upgrade_missing_data',
      at: 'scenarios/bank-payout@v2.yaml:30:7',
      says: 'runs of bank-payout@v1 may have no input "purpose_code", which bank-payout@v2 requires: give it under context.inputs in the migration',
    },
    {
      name: 'an input given by an expression that reads a field the old version does not have',
      to: PURPOSE_V2,
      migration: givingPurposeCode('inputs.purpose'),
      code: 'invalid_expression',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:6:',
      says: '(evaluated on runs of bank-payout@v1)',
    },
    {
      name: 'an input read from the payee check, for runs whose payee check is still to come',
      to: PURPOSE_V2,
      migration: PURPOSE_MIGRATION.replace(/^stay: .*\n/m, ''),
      code: 'upgrade_missing_data',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:11:',
      says: 'runs waiting at "payout_limits" (payout_limits) may not have completed "verify_payee", whose result input "purpose_code" reads: keep them on bank-payout@v1 under stay',
    },
    {
      name: 'an input given a number where the new version takes text',
      to: PURPOSE_V2,
      migration: givingPurposeCode('size(inputs.payout_reference)'),
      code: 'invalid_expression',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:6:',
      says: 'input "purpose_code" of bank-payout@v2 is "string", but this gives int',
    },
    {
      name: 'an input the new version does not have',
      to: v1AsV2(),
      migration: givingPurposeCode("'SUPP'"),
      code: 'upgrade_unknown_input',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:6:',
      says: '"purpose_code" is not an input of bank-payout@v2',
    },
    {
      name: 'a migration with a field it does not know',
      to: v1AsV2(),
      migration: `${MIGRATION_HEAD}stays: [execute_payout]\n`,
      code: 'unknown_field',
      at: 'scenarios/bank-payout@v1-to-v2.yaml:4:',
      says: 'stays',
    },
  ];

  it.each(unsafe.map((entry) => [entry.name, entry] as const))(
    'refuses %s',
    (_name, { to, migration: text, code, at, says }) => {
      const report = checkUpgrade(v1, v2(to), text === undefined ? undefined : migration(text));
      expect(report.ok).toBe(false);
      const found = report.problems.map(formatProblem);
      expect(found, found.join('\n')).toContainEqual(expect.stringContaining(`${at}`));
      const problem = report.problems.find((item) => item.code === code);
      expect(problem, found.join('\n')).toBeDefined();
      expect(formatProblem(problem!)).toContain(at);
      expect(problem!.message).toContain(says);
    },
  );

  it('has at least ten unsafe upgrades in its corpus', () => {
    expect(unsafe.length).toBeGreaterThanOrEqual(10);
  });

  it('reports the load problems of a side that does not load, and nothing else', () => {
    const report = checkUpgrade(v1, v2('scenario: bank-payout\nversion: v2\n'));
    expect(report.ok).toBe(false);
    expect(report.states).toEqual([]);
    expect(report.problems.length).toBeGreaterThan(0);
    for (const problem of report.problems)
      expect(problem.file).toBe('scenarios/bank-payout@v2.yaml');
  });
});

describe('checkUpgrade on realistic v2s of the catalogue', () => {
  it.each(catalogueUpgrades().map((entry) => [entry.id, entry.change, entry] as const))(
    '%s@v1 → v2 with %s is safe',
    (_id, _change, { from, to, migration: renames }) => {
      const report = checkUpgrade(from, to, renames);
      expect(report.problems.map(formatProblem)).toEqual([]);
      expect(report.states.length).toBeGreaterThan(0);
    },
  );
});
