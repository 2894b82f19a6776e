// The reference server's live partners: one HTTP connector per party of PROGRAMRUN_PARTNERS,
// with the party's flow-control limits, for `createEngine({ connectors })`.
import type { CompiledScenario } from '@programrun/dsl';
import type { PartnerConnection } from '@programrun/engine';
import { createHttpConnector } from '@programrun/webhooks';
import { UsageError } from '../usage-error.js';
import { PARTNERS_VARIABLE, type PartnersFile } from './partners-file.js';

/** The appointed parties of a catalogue: the parties handoffs go to. */
function appointedParties(scenarios: readonly CompiledScenario[]): Set<string> {
  return new Set(
    scenarios.flatMap((scenario) =>
      Object.entries(scenario.definition.parties)
        .filter(([, party]) => party.kind === 'appointed')
        .map(([id]) => id),
    ),
  );
}

/**
 * The engine's connections for the partners file: an HTTP connector per party (signed with
 * its secret, loopback only when the file allows it) with its `concurrency`, `rate` and
 * `maxPerAccount`. A party no scenario of the catalogue appoints is refused (a typo would
 * otherwise leave its handoffs waiting for a manual answer).
 */
export function partnerConnections(
  partners: PartnersFile,
  scenarios: readonly CompiledScenario[],
  file: string,
): Record<string, PartnerConnection> {
  const known = appointedParties(scenarios);
  const connections: Record<string, PartnerConnection> = {};
  for (const [party, settings] of Object.entries(partners)) {
    if (!known.has(party)) {
      const listed = [...known].sort().join(', ') || 'none';
      throw new UsageError(
        `${PARTNERS_VARIABLE} ${file}: /${party}: no scenario appoints a party ${party} (appointed parties: ${listed})`,
      );
    }
    connections[party] = {
      connector: createHttpConnector({
        url: settings.url,
        secret: settings.secret,
        allowLoopback: settings.allowLoopback === true,
        ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
      }),
      ...(settings.concurrency === undefined ? {} : { concurrency: settings.concurrency }),
      ...(settings.rate === undefined ? {} : { rate: settings.rate }),
      ...(settings.maxPerAccount === undefined ? {} : { maxPerAccount: settings.maxPerAccount }),
    };
  }
  return connections;
}
