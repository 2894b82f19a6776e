// The reference server's drain does not wait for open event streams: they end at once, so
// stopping takes far less than the shutdown timeout and cuts no request off.
import { describe, expect, it, vi } from 'vitest';
import { startReferenceServer } from '../src/serve/reference-server.js';
import { ROOT } from './run-bin.js';

describe('stopping the reference server with event streams open', () => {
  it('ends the streams at once instead of waiting out the shutdown timeout', async () => {
    const lines = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const server = await startReferenceServer({
      port: 0,
      host: '127.0.0.1',
      scenarioDirectory: `${ROOT}scenarios`,
      environment: {
        PROGRAMRUN_STORE: 'memory',
        PROGRAMRUN_SHUTDOWN_TIMEOUT_MS: '30000',
        PROGRAMRUN_LOG_LEVEL: 'info',
      },
    });
    try {
      const headers = { authorization: `Bearer ${server.testKey}` };
      const created = await fetch(`${server.url}/v1/program-runs`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': 'drain-1' },
        body: JSON.stringify({
          scenario_id: 'wallet-delivery@v1',
          inputs: {
            amount: '125.00',
            destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
            network: 'base',
          },
        }),
      });
      const { id } = (await created.json()) as { id: string };
      const streams = await Promise.all(
        [1, 2].map(() => fetch(`${server.url}/v1/program-runs/${id}/stream`, { headers })),
      );
      const readers = streams.map((stream) => {
        expect(stream.status).toBe(200);
        return stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      });
      for (const reader of readers) expect((await reader.read()).value).toMatch(/^event: run\n/);

      const stopping = performance.now();
      const closed = server.close();
      // Each stream ends (after any event already under way), and the server stops.
      for (const reader of readers) {
        for (;;) {
          const { done } = await reader.read();
          if (done) break;
        }
      }
      await closed;
      expect(performance.now() - stopping).toBeLessThan(5_000);
      const drained = lines.mock.calls
        .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
        .find((entry) => entry.msg === 'drained' || entry.message === 'drained');
      expect(drained).toMatchObject({ requests_cut_off: 0 });
    } finally {
      await server.close();
      lines.mockRestore();
    }
  });
});
