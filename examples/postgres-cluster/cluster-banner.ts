// What cluster.ts prints once every host is ready: where they are, the shared key, and
// the commands of the README's walkthrough with real ports, pids and inputs.

/** A host that is up. */
export interface ReadyHost {
  /** `A`, `B`, … */
  readonly name: string;
  /** `http://127.0.0.1:8801` */
  readonly url: string;
  readonly pid: number;
}

/** What the banner shows. */
export interface BannerInput {
  readonly hosts: readonly ReadyHost[];
  /** The database URL without its password. */
  readonly database: string;
  readonly schema: string;
  readonly testKey: string;
  /** The JSON body of a run creation (a scenario's example inputs). */
  readonly createBody: string;
  /** False when the evidence key was generated for this start. */
  readonly evidenceKeyConfigured: boolean;
}

/**
 * The cluster's banner: each host with its URL and pid, the test key every host accepts,
 * and curl commands that create a run on host A, read it and replay its Idempotency-Key
 * on host B, and stop host A hard.
 *
 * @example
 * ```ts
 * console.log(clusterBanner({ hosts, database, schema: 'programrun', testKey, createBody, evidenceKeyConfigured: false }));
 * ```
 */
export function clusterBanner(input: BannerInput): string {
  const { hosts, testKey, createBody } = input;
  const first = hosts[0]!;
  const second = hosts[1] ?? first;
  const list = hosts.map((host) => `  host ${host.name}  ${host.url}  pid ${host.pid}`).join('\n');
  const post = (host: ReadyHost, flags: string) =>
    `  curl ${flags} ${host.url}/v1/program-runs -H "Authorization: Bearer $KEY" \\
    -H "Idempotency-Key: $IK" -H "Content-Type: application/json" \\
    -d '${createBody}'`;
  return `programrun cluster: ${hosts.length} host${hosts.length === 1 ? '' : 's'} sharing ${input.database} (schema ${input.schema})
${list}
Test API key (every host): ${testKey}${
    input.evidenceKeyConfigured
      ? ''
      : '\nEvidence key: generated for this start and shared by every host; set PROGRAMRUN_EVIDENCE_KEY to keep one'
  }

Create a run on host ${first.name}:
  export KEY=${testKey}
  export IK=$(node -e 'console.log(crypto.randomUUID())')
${post(first, '-s')}

Read it on host ${second.name} (simulated partners answer after ~2 s; any host may fire the timer):
  curl -s ${second.url}/v1/program-runs/<id> -H "Authorization: Bearer $KEY"

Send the same Idempotency-Key to host ${second.name}: the same run, with Idempotent-Replayed: true
${post(second, '-si')}

Stop host ${first.name} hard; the other hosts keep serving its runs and firing its timers:
  kill -9 ${first.pid}

Ctrl-C stops every host.`;
}
