// Webhooks end to end over HTTP: register an endpoint, run, deliver to a real loopback
// receiver that verifies every delivery with the standardwebhooks package.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookDispatcher, type WebhookDispatcher } from '@programrun/webhooks';
import { startReceiver, type TestReceiver } from '../../webhooks/test/receiver.js';
import { LIVE_KEY, startTestServer, type TestServer } from './harness.js';
import { conformingClient } from './openapi-client.js';

let server: TestServer;
let receiver: TestReceiver;
let dispatcher: WebhookDispatcher;
const client = conformingClient(() => server);
const { call, createRun, expectCall, expectProblem, key } = client;

beforeAll(async () => {
  server = await startTestServer('handle');
  receiver = await startReceiver();
  dispatcher = createWebhookDispatcher(server.engine, { timeoutMs: 500, concurrency: 4 });
});
afterAll(async () => {
  await dispatcher.stop();
  await receiver.close();
  await server.close();
});

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('webhooks over HTTP', () => {
  it('delivers what GET /v1/events shows, byte for byte, verified by standardwebhooks', async () => {
    const endpoint = await expectCall(201, 'POST', '/v1/webhook-endpoints', {
      body: { url: receiver.url, description: 'receiver' },
      headers: { 'idempotency-key': key() },
    });
    receiver.secrets = [endpoint.body.secret as string];
    const runId = await createRun('wallet-delivery@v1');
    await expectCall(200, 'POST', '/v1/test_helpers/clock/advance', { body: { seconds: 3600 } });
    await dispatcher.drain();
    expect(receiver.rejected).toEqual([]);
    const events = (await expectCall(200, 'GET', `/v1/events?run=${runId}&limit=100`)).body
      .data as { id: string; delivery_status: string }[];
    expect(events.length).toBeGreaterThan(5);
    expect(events.every((event) => event.delivery_status === 'delivered')).toBe(true);
    for (const delivered of receiver.received.filter((item) => item.event.run?.id === runId)) {
      const read = await expectCall(200, 'GET', `/v1/events/${delivered.id}`);
      expect({
        ...(JSON.parse(delivered.body) as object),
        delivery_status: 'delivered',
        pending_webhooks: 0,
      }).toEqual(read.body);
    }
    const target = events[0]!.id;
    const before = receiver.received.filter((item) => item.id === target);
    await expectCall(200, 'POST', `/v1/events/${target}/redeliver`, { body: {} });
    await dispatcher.drain();
    const after = receiver.received.filter((item) => item.id === target);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.body).toBe(before[0]!.body);
    const deliveries = await expectCall(200, 'GET', `/v1/events/${target}/deliveries`);
    expect(deliveries.body.data).toMatchObject([
      { status: 'delivered', attempt_count: 2, endpoint: endpoint.body.id },
    ]);
    await expectCall(200, 'DELETE', `/v1/webhook-endpoints/${endpoint.body.id as string}`);
  });

  it('keeps run creation and signal latency while the receiver hangs', async () => {
    const measure = async (rounds: number) => {
      const creates: number[] = [];
      for (let index = 0; index < rounds; index += 1) {
        const started = performance.now();
        const id = await createRun('wallet-delivery@v1');
        creates.push(performance.now() - started);
        await call('POST', `/v1/program-runs/${id}/cancel`, { body: {} });
      }
      return median(creates);
    };
    await measure(5); // warm up
    const baseline = await measure(25);
    const endpoint = await expectCall(201, 'POST', '/v1/webhook-endpoints', {
      body: { url: receiver.url },
      headers: { 'idempotency-key': key() },
    });
    receiver.secrets = [endpoint.body.secret as string];
    receiver.mode = 'hang';
    dispatcher.start();
    const hanging = await measure(25);
    receiver.mode = 204;
    expect(receiver.maxConcurrent).toBeLessThanOrEqual(4);
    // Every request of the dispatcher is hanging, yet creation is as fast as before.
    expect(hanging).toBeLessThan(baseline * 2 + 5);
    await expectCall(200, 'DELETE', `/v1/webhook-endpoints/${endpoint.body.id as string}`);
  });

  it('refuses live endpoints that are not https or point at private or metadata addresses', async () => {
    for (const url of [
      'http://hooks.example.com/',
      'https://10.0.0.1/',
      'https://169.254.169.254/latest/meta-data',
      // (Loopback forms are allowed here: this host sets allowLoopback for its receivers.)
      'https://[fd00:ec2::254]/',
      'https://3232235786/', // 192.168.1.10 as one decimal number
      'https://user:pass@hooks.example.com/',
    ]) {
      await expectProblem(422, 'invalid_webhook_endpoint', 'POST', '/v1/webhook-endpoints', {
        key: LIVE_KEY,
        body: { url },
        headers: { 'idempotency-key': key() },
      });
    }
    await expectCall(201, 'POST', '/v1/webhook-endpoints', {
      key: LIVE_KEY,
      body: { url: 'https://hooks.example.com/programrun' },
      headers: { 'idempotency-key': key() },
    });
  });

  it('refuses a third endpoint on one receiver URL with 422 webhook_endpoint_url_limit', async () => {
    const url = 'https://hooks.example.com/shared';
    const ids: string[] = [];
    for (const query of ['', '?copy=2']) {
      const created = await expectCall(201, 'POST', '/v1/webhook-endpoints', {
        key: LIVE_KEY,
        body: { url: `${url}${query}` },
        headers: { 'idempotency-key': key() },
      });
      ids.push(created.body.id as string);
    }
    const refused = await expectProblem(
      422,
      'webhook_endpoint_url_limit',
      'POST',
      '/v1/webhook-endpoints',
      { key: LIVE_KEY, body: { url: `${url}?copy=3` }, headers: { 'idempotency-key': key() } },
    );
    expect(refused.body).toMatchObject({ errors: [{ pointer: '/url', code: 'url_limit' }] });
    const other = await expectCall(201, 'POST', '/v1/webhook-endpoints', {
      key: LIVE_KEY,
      body: { url: 'https://hooks.example.com/elsewhere' },
      headers: { 'idempotency-key': key() },
    });
    await expectProblem(
      422,
      'webhook_endpoint_url_limit',
      'POST',
      `/v1/webhook-endpoints/${other.body.id as string}`,
      { key: LIVE_KEY, body: { url } },
    );
    for (const id of [...ids, other.body.id as string])
      await expectCall(200, 'DELETE', `/v1/webhook-endpoints/${id}`, { key: LIVE_KEY });
  });
});
