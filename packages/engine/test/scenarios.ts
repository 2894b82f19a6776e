import { fileURLToPath } from 'node:url';
import type { CompiledScenario } from '@programrun/dsl';
import { loadCatalogue } from '@programrun/dsl/node';

/** The repository's scenarios/ directory. */
export const SCENARIO_DIRECTORY = fileURLToPath(new URL('../../../scenarios/', import.meta.url));

let cached: Promise<CompiledScenario[]> | undefined;

/** Every scenario of the catalogue, compiled once per test file. */
export function catalogueScenarios(): Promise<CompiledScenario[]> {
  cached ??= loadCatalogue(SCENARIO_DIRECTORY);
  return cached;
}

/** Valid inputs of `wallet-delivery@v1` (an EIP-55 address on Base). */
export const WALLET_INPUTS = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};
