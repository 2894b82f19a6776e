// `programrun serve` with PROGRAMRUN_PARTNERS: live handoffs go to a real partner on
// loopback through the HTTP connector (signed, retried with the same key), and a bad
// partners file stops the server with one line naming the file and what is wrong.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '@programrun/engine';
import { programrun } from './run-bin.js';
import { killServers, serve } from './serve-process.js';
import { startSignedPartner } from './signed-partner.js';

const directories: string[] = [];
afterAll(async () => {
  killServers();
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});
async function directory(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'programrun-partners-'));
  directories.push(made);
  return made;
}
async function partnersFile(content: unknown): Promise<string> {
  const file = join(await directory(), 'partners.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

interface RunView {
  id: string;
  status: string;
  awaiting: { step: string } | null;
}

const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

describe('programrun serve with PROGRAMRUN_PARTNERS', () => {
  it("sends a live run's handoff to the partner's URL, signed, and applies its answer once", async () => {
    const secret = generateWebhookSecret();
    // The first call fails (503): the retry carries the same key and a fresh signature.
    const partner = await startSignedPartner(secret, (response, index) => {
      if (index === 0) {
        response.writeHead(503).end();
        return;
      }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ outcome: 'confirmed', reference: 'CA-7', data: { risk: 'low' } }));
    });
    try {
      const dataDir = await directory();
      const store = { PROGRAMRUN_STORE: 'pglite', PROGRAMRUN_DATA_DIR: dataDir };
      const created = await programrun(
        ['keys', 'create', '--account', 'acct_demo', '--env', 'live'],
        { env: store },
      );
      expect(created.code).toBe(0);
      const liveKey = created.stdout.split('\n')[1]!;
      const file = await partnersFile({
        chain_analytics: {
          url: partner.url,
          secret,
          concurrency: 2,
          rate: 10,
          allowLoopback: true,
        },
      });
      const server = serve(['--port', '0'], { ...store, PROGRAMRUN_PARTNERS: file });
      const { base } = await server.started;
      expect(server.output().stdout).toContain(
        `  chain_analytics → ${partner.url} (concurrency 2, 10 calls/s)`,
      );
      const headers = { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json' };

      const response = await fetch(`${base}/v1/program-runs`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': 'partners-live-1' },
        body: JSON.stringify({ scenario_id: 'wallet-delivery@v1', inputs: walletInputs }),
      });
      expect(response.status).toBe(201);
      const run = (await response.json()) as RunView;
      expect(run.awaiting?.step).toBe('screen_destination');

      // The workers call the partner; once it confirms, the run waits for the release.
      let current = run;
      for (let tries = 0; tries < 100 && current.awaiting?.step !== 'release_approval'; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        current = (await (
          await fetch(`${base}/v1/program-runs/${run.id}`, { headers })
        ).json()) as RunView;
      }
      expect(current).toMatchObject({ status: 'waiting', awaiting: { step: 'release_approval' } });

      expect(partner.received).toHaveLength(2);
      const [first, second] = partner.received;
      for (const received of partner.received) {
        expect(received.verified).toBe(true);
        expect(received.headers['webhook-id']).toMatch(/^pik_[0-9a-f]{32}$/);
        expect(received.headers['idempotency-key']).toBe(received.headers['webhook-id']);
        expect(received.payload).toMatchObject({
          run_id: run.id,
          step: 'screen_destination',
          party: 'chain_analytics',
          environment: 'live',
          account: 'acct_demo',
          idempotency_key: received.headers['webhook-id'],
        });
      }
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect([first!.headers['programrun-attempt'], second!.headers['programrun-attempt']]).toEqual(
        ['1', '2'],
      );

      const events = (await (
        await fetch(`${base}/v1/program-runs/${run.id}/events?limit=100`, { headers })
      ).json()) as { data: { type: string; data: Record<string, unknown> }[] };
      const attempted = events.data.filter(
        (record) => record.type === 'program_run.handoff.attempted',
      );
      expect(attempted.map((record) => record.data.outcome)).toEqual(['retrying', 'answered']);
      expect(attempted[0]!.data).toMatchObject({ call: 1, error_class: 'http_5xx', status: 503 });
      const confirmed = events.data.filter(
        (record) => record.type === 'program_run.handoff.confirmed',
      );
      expect(confirmed).toHaveLength(1);
      expect(confirmed[0]!.data).toMatchObject({
        party: 'chain_analytics',
        reference: 'CA-7',
        data: { risk: 'low' },
        answered_by: { actor: 'connector:chain_analytics' },
      });

      const partners = (await (await fetch(`${base}/v1/partners`, { headers })).json()) as {
        data: { party: string; connector: string; concurrency: number; rate: number }[];
      };
      expect(partners.data).toEqual([
        expect.objectContaining({
          party: 'chain_analytics',
          connector: 'custom',
          concurrency: 2,
          rate: 10,
          in_flight: 0,
          queued: 0,
        }),
      ]);

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.output().stderr).toBe('');
    } finally {
      await partner.close();
    }
  });

  it('refuses a bad partners file with one line naming the file and the JSON pointer', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const url = 'https://partner.example.com/handoffs';
    const missing = join(await directory(), 'none.json');
    const cases: [file: string, line: string][] = [
      [missing, `PROGRAMRUN_PARTNERS ${missing}: cannot read it (no such file)`],
      [await partnersFile('{ "chain_analytics": '), 'PROGRAMRUN_PARTNERS %: not JSON: '],
      [
        await partnersFile({ chain_analytics: { url, secret, concurrency: 0 } }),
        'PROGRAMRUN_PARTNERS %: /chain_analytics/concurrency: must be at least 1',
      ],
      [
        await partnersFile({ chain_analytics: { url, secret: 'hunter2' } }),
        'PROGRAMRUN_PARTNERS %: /chain_analytics/secret: must be a whsec_ secret',
      ],
      [
        await partnersFile({ chain_analytics: { url, secret, colour: 'red' } }),
        'PROGRAMRUN_PARTNERS %: /chain_analytics/colour: unknown field',
      ],
      [
        await partnersFile({ chain_analytics: { url: 'http://127.0.0.1:9/handoffs', secret } }),
        'PROGRAMRUN_PARTNERS %: /chain_analytics/url: The partner URL must name a public host, not a loopback, private, link-local or reserved address. (set "allowLoopback": true for a partner on this machine)',
      ],
      [
        await partnersFile({ acme_bank: { url, secret } }),
        'PROGRAMRUN_PARTNERS %: /acme_bank: no scenario appoints a party acme_bank',
      ],
    ];
    for (const [file, line] of cases) {
      const result = await programrun(['serve', '--port', '0'], {
        env: { PROGRAMRUN_STORE: 'memory', PROGRAMRUN_PARTNERS: file },
      });
      expect(result.code, file).toBe(2);
      expect(result.stdout, file).toBe('');
      expect(result.stderr.split('\n'), result.stderr).toHaveLength(2);
      expect(
        result.stderr.startsWith(`programrun serve: ${line.replace('%', file)}`),
        result.stderr,
      ).toBe(true);
    }
  });
});
