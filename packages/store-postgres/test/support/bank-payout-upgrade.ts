// bank-payout@v1 and the v2 of the upgrading guide (it screens the beneficiary again before
// the payout), compiled, with the proof of moving v1's runs to v2.
import { readFileSync } from 'node:fs';
import { checkUpgrade, compile, type CompiledScenario, type UpgradeReport } from '@programrun/dsl';

const SCENARIOS = new URL('../../../../scenarios/', import.meta.url);
const UPGRADES = new URL('../../../dsl/test/fixtures/upgrades/', import.meta.url);

/** The two versions and the proof. */
export interface BankPayoutUpgrade {
  readonly v1: CompiledScenario;
  readonly v2: CompiledScenario;
  readonly report: UpgradeReport;
  /** The files, for a `programrun upgrade apply` command line. */
  readonly files: { readonly v1: URL; readonly v2: URL; readonly migration: URL };
}

/**
 * Loads both versions and checks the upgrade (with its migration: runs at the payout stay).
 *
 * @example
 * ```ts
 * const { v1, v2, report } = bankPayoutUpgrade();
 * ```
 */
export function bankPayoutUpgrade(): BankPayoutUpgrade {
  const files = {
    v1: new URL('bank-payout@v1.yaml', SCENARIOS),
    v2: new URL('bank-payout@v2.yaml', UPGRADES),
    migration: new URL('bank-payout@v1-to-v2.yaml', UPGRADES),
  };
  const read = (url: URL) => ({
    text: readFileSync(url, 'utf8'),
    file: url.pathname.slice(url.pathname.lastIndexOf('/') + 1),
  });
  const [from, to, migration] = [files.v1, files.v2, files.migration].map(read);
  const [v1, v2] = [from!, to!].map(({ text, file }) => compile(text, { file })) as [
    CompiledScenario,
    CompiledScenario,
  ];
  return { v1, v2, report: checkUpgrade(from!, to!, migration), files };
}
