import { createServer, type Server } from 'node:http';
import { connect, type LookupFunction } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenCounting } from './loopback-server.js';
import fc from 'fast-check';
import {
  checkEndpointUrl,
  classifyAddress,
  ForbiddenAddressError,
  isForbiddenAddress,
  isLoopbackHostname,
  isPermittedAddress,
  type EndpointUrlOptions,
} from '@programrun/engine';
import { createGuardedLookup, type ResolvedAddress, type Resolver } from '../src/guarded-lookup.js';
import { createWebhookAgents, sendWebhook, type WebhookAgents } from '../src/send-webhook.js';

/** A loopback server that counts every connection and request it receives. */
interface CountingServer {
  readonly server: Server;
  readonly port: number;
  connections: number;
  requests: number;
}

async function countingServer(
  handle: (
    url: string,
    headers: Record<string, string | string[] | undefined>,
  ) => {
    status: number;
    headers?: Record<string, string>;
  } = () => ({ status: 200 }),
): Promise<CountingServer> {
  const server = createServer((request, response) => {
    counting.requests += 1;
    request.resume();
    request.on('end', () => {
      const answer = handle(request.url ?? '/', request.headers);
      response.writeHead(answer.status, answer.headers).end('ok');
    });
  });
  const counting: CountingServer = { server, port: 0, connections: 0, requests: 0 };
  return listenCounting(server, counting);
}

const resolverOf =
  (...addresses: string[]): Resolver =>
  () =>
    Promise.resolve(
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

function lookupOnce(
  lookup: LookupFunction,
  hostname: string,
  all: boolean,
): Promise<{
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family?: number;
}> {
  return new Promise((resolve) => {
    lookup(hostname, { all, family: 0, hints: 0 }, (error, address, family) =>
      resolve(family === undefined ? { error, address } : { error, address, family }),
    );
  });
}

describe('isForbiddenAddress', () => {
  const forbidden: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback /8'],
    ['::1', 'IPv6 loopback'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12 (end)'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local: AWS/GCP/Azure metadata'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'scoped link-local'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local: AWS IPv6 metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network 0/8'],
    ['::', 'IPv6 unspecified'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.100.100.200', 'carrier-grade NAT: Alibaba metadata'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'IPv6 multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved 240/4'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['198.51.100.1', 'documentation TEST-NET-2'],
    ['203.0.113.1', 'documentation TEST-NET-3'],
    ['192.0.0.1', 'IETF protocol assignments'],
    ['198.18.0.1', 'benchmarking'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['2001:2::1', 'IPv6 benchmarking'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:808:808::1', '6to4 of a public address'],
    ['2001::1', 'Teredo'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback (hex)'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback (hex)'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated)'],
    ['::ffff:0:7f00:1', 'IPv4-translated (RFC 6145)'],
    ['fec0::1', 'deprecated site-local'],
    ['100::1', 'discard-only'],
    ['1::1', 'outside 2000::/3'],
    ['127.1', 'shortened IPv4 (URLs normalise it first)'],
    ['0x7f.0.0.1', 'hex IPv4'],
    ['2130706433', 'decimal IPv4'],
    ['localhost', 'a host name'],
    ['', 'empty'],
    ['1.2.3.4.5', 'garbage'],
    [' 8.8.8.8', 'padded'],
  ];
  it.each(forbidden)('refuses %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  const allowed: [string, string][] = [
    ['8.8.8.8', 'Google DNS'],
    ['1.1.1.1', 'Cloudflare DNS'],
    ['2606:4700::1111', 'Cloudflare DNS over IPv6'],
    ['2001:4860:4860::8888', 'Google DNS over IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['64:ff9b::808:808', 'NAT64 of a public address'],
    ['172.32.0.1', 'just past 172.16/12'],
    ['100.128.0.1', 'just past 100.64/10'],
  ];
  it.each(allowed)('allows %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('tells loopback apart, so local development can allow it and nothing else', () => {
    expect(classifyAddress('127.0.0.1')).toBe('loopback');
    expect(classifyAddress('::1')).toBe('loopback');
    expect(classifyAddress('::ffff:127.0.0.2')).toBe('loopback');
    expect(classifyAddress('0.0.0.0')).toBe('forbidden');
    // IPv4-compatible, not IPv4-mapped: ipaddr.js alone would call it loopback.
    expect(classifyAddress('::127.0.0.1')).toBe('forbidden');
    expect(isPermittedAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isPermittedAddress('127.0.0.1', { allowLoopback: false })).toBe(false);
    expect(isPermittedAddress('169.254.169.254', { allowLoopback: true })).toBe(false);
    expect(isPermittedAddress('8.8.8.8', { allowLoopback: false })).toBe(true);
  });

  it('has an error with the stable code that keeps the address out of its message', () => {
    const error = new ForbiddenAddressError('internal.example', '10.0.0.7');
    expect(error.code).toBe('forbidden_address');
    expect(error.address).toBe('10.0.0.7');
    expect(error.message).not.toContain('10.0.0.7');
  });
});

describe('checkEndpointUrl', () => {
  const live: EndpointUrlOptions = { environment: 'live', allowLoopback: false };
  const test: EndpointUrlOptions = { environment: 'test', allowLoopback: false };
  const liveLocal: EndpointUrlOptions = { environment: 'live', allowLoopback: true };

  const cases: [string, EndpointUrlOptions, string | null][] = [
    ['https://hooks.example.com/programrun?x=1', live, null],
    ['https://hooks.example.com:8443/', live, null],
    ['http://hooks.example.com/', test, null],
    ['http://hooks.example.com/', live, 'https_required'],
    ['https://8.8.8.8/hook', live, null],
    ['https://[2606:4700::1111]/hook', live, null],
    ['ftp://hooks.example.com/', test, 'invalid_url'],
    ['javascript:alert(1)', test, 'invalid_url'],
    ['/relative/path', test, 'invalid_url'],
    ['hooks.example.com', test, 'invalid_url'],
    ['', test, 'invalid_url'],
    ['https://exa mple.com/', test, 'invalid_url'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, test, 'invalid_url'],
    ['https://user:secret@hooks.example.com/', live, 'credentials_in_url'],
    ['https://user@hooks.example.com/', live, 'credentials_in_url'],
    ['https://:secret@hooks.example.com/', live, 'credentials_in_url'],
    ['https://hooks.example.com/#frag', live, 'invalid_url'],
    ['https://hooks.example.com/#', live, 'invalid_url'],
    ['https://127.0.0.1/', live, 'forbidden_address'],
    ['https://2130706433/', live, 'forbidden_address'],
    ['https://0x7f.1/', live, 'forbidden_address'],
    ['https://017700000001/', live, 'forbidden_address'],
    ['https://127.1/', live, 'forbidden_address'],
    ['https://0/', live, 'forbidden_address'],
    ['https://169.254.169.254/latest/meta-data/', live, 'forbidden_address'],
    ['http://169.254.169.254/', test, 'forbidden_address'],
    ['https://10.1.2.3/', test, 'forbidden_address'],
    ['https://100.100.100.200/', live, 'forbidden_address'],
    ['https://[::1]/', live, 'forbidden_address'],
    ['https://[::ffff:127.0.0.1]/', live, 'forbidden_address'],
    ['https://[::ffff:a9fe:a9fe]/', live, 'forbidden_address'],
    ['https://[fe80::1]/', live, 'forbidden_address'],
    ['https://[fd00:ec2::254]/', live, 'forbidden_address'],
    ['https://[fe80::1%25eth0]/', live, 'invalid_url'],
    ['https://localhost/', live, 'forbidden_address'],
    ['https://LOCALHOST./', live, 'forbidden_address'],
    ['https://api.localhost/', test, 'forbidden_address'],
    ['http://localhost:3000/hooks', liveLocal, null],
    ['http://127.0.0.1:3000/hooks', liveLocal, null],
    ['http://[::1]:3000/hooks', liveLocal, null],
    ['http://hooks.example.com/', liveLocal, 'https_required'],
    ['http://10.0.0.1/', liveLocal, 'forbidden_address'],
    ['http://0.0.0.0:3000/', liveLocal, 'forbidden_address'],
  ];
  it.each(cases)('%s (%o) → %s', (url, options, code) => {
    const result = checkEndpointUrl(url, options);
    if (code === null) {
      expect(result).toMatchObject({ ok: true });
    } else {
      expect(result).toMatchObject({ ok: false, code });
      if (!result.ok) expect(result.message).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('returns the URL normalised (IPv4 forms rewritten, default port dropped)', () => {
    const result = checkEndpointUrl('HTTPS://Hooks.Example.com:443/a', live);
    expect(result.ok && result.url.href).toBe('https://hooks.example.com/a');
    const local = checkEndpointUrl('http://0x7f.1:8080/', liveLocal);
    expect(local.ok && local.url.hostname).toBe('127.0.0.1');
  });

  it('treats localhost and *.localhost as loopback names', () => {
    expect(isLoopbackHostname('localhost')).toBe(true);
    expect(isLoopbackHostname('a.b.localhost.')).toBe(true);
    expect(isLoopbackHostname('localhost.example.com')).toBe(false);
    expect(isLoopbackHostname('notlocalhost')).toBe(false);
  });
});

describe('guarded lookup', () => {
  it('answers both callback forms Node uses', async () => {
    const lookup = createGuardedLookup({
      allowLoopback: false,
      resolve: resolverOf('8.8.8.8', '2606:4700::1111'),
    });
    expect(await lookupOnce(lookup, 'hooks.example', true)).toEqual({
      error: null,
      address: [
        { address: '8.8.8.8', family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ],
    });
    expect(await lookupOnce(lookup, 'hooks.example', false)).toEqual({
      error: null,
      address: '8.8.8.8',
      family: 4,
    });
  });

  it('honours a requested family, and answers ENOTFOUND rather than an empty list', async () => {
    const lookup = createGuardedLookup({ allowLoopback: false, resolve: resolverOf('8.8.8.8') });
    const answer = await new Promise<unknown>((resolve) =>
      lookup('v4only.example', { family: 6, all: true }, (error) => resolve(error?.code)),
    );
    expect(answer).toBe('ENOTFOUND');
    const empty = createGuardedLookup({ allowLoopback: false, resolve: resolverOf() });
    expect((await lookupOnce(empty, 'nothing.example', true)).error?.code).toBe('ENOTFOUND');
  });

  it('refuses a host when any answer is forbidden (a mixed round-robin record)', async () => {
    for (const answers of [
      ['8.8.8.8', '10.0.0.1'],
      ['169.254.169.254', '8.8.8.8'],
      ['2606:4700::1111', 'fd00:ec2::254'],
      ['::ffff:127.0.0.1'],
      ['not-an-ip'],
    ]) {
      const lookup = createGuardedLookup({ allowLoopback: false, resolve: resolverOf(...answers) });
      for (const all of [true, false]) {
        const { error } = await lookupOnce(lookup, 'mixed.example', all);
        expect(error).toBeInstanceOf(ForbiddenAddressError);
        expect(error?.code).toBe('forbidden_address');
      }
    }
  });

  it('allows loopback answers only when loopback is allowed', async () => {
    const resolve = resolverOf('::1', '127.0.0.1');
    const strict = createGuardedLookup({ allowLoopback: false, resolve });
    const local = createGuardedLookup({ allowLoopback: true, resolve });
    expect((await lookupOnce(strict, 'dev.example', true)).error?.code).toBe('forbidden_address');
    expect((await lookupOnce(local, 'dev.example', true)).error).toBeNull();
  });

  it('checks every resolution, so DNS rebinding after a good answer is refused', async () => {
    const answers = [['8.8.8.8'], ['127.0.0.1'], ['8.8.8.8', '169.254.169.254']];
    let call = 0;
    const rebinding: Resolver = () =>
      Promise.resolve(
        answers[Math.min(call++, answers.length - 1)]!.map((address): ResolvedAddress => ({
          address,
          family: 4,
        })),
      );
    const lookup = createGuardedLookup({ allowLoopback: false, resolve: rebinding });
    expect((await lookupOnce(lookup, 'rebind.example', true)).address).toEqual([
      { address: '8.8.8.8', family: 4 },
    ]);
    expect((await lookupOnce(lookup, 'rebind.example', true)).error?.code).toBe(
      'forbidden_address',
    );
    expect((await lookupOnce(lookup, 'rebind.example', false)).error?.code).toBe(
      'forbidden_address',
    );
  });

  it('passes resolver failures through', async () => {
    const failing: Resolver = () =>
      Promise.reject(Object.assign(new Error('queryA EAI_AGAIN'), { code: 'EAI_AGAIN' }));
    const lookup = createGuardedLookup({ allowLoopback: false, resolve: failing });
    expect((await lookupOnce(lookup, 'flaky.example', true)).error?.code).toBe('EAI_AGAIN');
  });

  describe('plugged into net.connect', () => {
    let target: CountingServer;
    beforeAll(async () => {
      target = await countingServer();
    });
    afterAll(() => closeServer(target.server));

    for (const autoSelectFamily of [true, false]) {
      it(`connects only after the check (autoSelectFamily: ${String(autoSelectFamily)})`, async () => {
        const connectWith = (allowLoopback: boolean) =>
          new Promise<string>((resolve) => {
            const socket = connect({
              host: 'receiver.example',
              port: target.port,
              autoSelectFamily,
              lookup: createGuardedLookup({ allowLoopback, resolve: resolverOf('127.0.0.1') }),
            });
            socket.on('connect', () => {
              socket.destroy();
              resolve('connected');
            });
            socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
          });
        const before = target.connections;
        expect(await connectWith(false)).toBe('forbidden_address');
        expect(target.connections).toBe(before);
        expect(await connectWith(true)).toBe('connected');
      });
    }
  });
});

/** The ways a URL can name 127.0.0.1 or 0.0.0.0 (which Linux connects to locally). */
function ipv4Forms(value: number): fc.Arbitrary<string> {
  const radix = fc.constantFrom<'dec' | 'oct' | 'hex' | 'HEX'>('dec', 'oct', 'hex', 'HEX');
  const write = (part: number, style: 'dec' | 'oct' | 'hex' | 'HEX'): string =>
    style === 'dec'
      ? String(part)
      : style === 'oct'
        ? `0${part.toString(8)}`
        : `${style === 'hex' ? '0x' : '0X'}${part.toString(16)}`;
  return fc
    .tuple(
      fc.integer({ min: 1, max: 4 }),
      fc.array(radix, { minLength: 4, maxLength: 4 }),
      fc.boolean(),
    )
    .map(([count, styles, trailingDot]) => {
      const bytes = [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
      // `a.b.c.d`, `a.b.(c·256+d)`, `a.(b·65536+…)`, or one 32-bit number.
      const head = bytes.slice(0, count - 1);
      const tail = bytes.slice(count - 1).reduce((total, byte) => total * 256 + byte, 0);
      const parts = [...head, tail].map((part, index) => write(part, styles[index]!));
      return `${parts.join('.')}${trailingDot ? '.' : ''}`;
    });
}

const ipv6Literals = fc.constantFrom(
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:7f00:1]',
  '[::127.0.0.1]',
  '[::ffff:0.0.0.0]',
  '[::]',
  '[fe80::1]',
  '[fc00::1]',
  '[fd00:ec2::254]',
  '[::ffff:a9fe:a9fe]',
  '[64:ff9b::7f00:1]',
  '[2002:7f00:1::]',
);

const forbiddenAnswers = fc.constantFrom(
  '127.0.0.1',
  '::ffff:127.0.0.1',
  '::1',
  '0.0.0.0',
  '10.0.0.1',
  '169.254.169.254',
  'fd00:ec2::254',
  '100.100.100.200',
);
const publicAnswers = fc.constantFrom('8.8.8.8', '2606:4700::1111');

/** A host name with a resolver whose answers include at least one forbidden address. */
const resolvedHosts = fc
  .record({
    label: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/),
    forbidden: fc.array(forbiddenAnswers, { minLength: 1, maxLength: 3 }),
    public: fc.array(publicAnswers, { maxLength: 2 }),
    publicFirst: fc.boolean(),
  })
  .map(({ label, forbidden, public: open, publicFirst }) => ({
    host: `${label}.hooks.example`,
    answers: publicFirst ? [...open, ...forbidden] : [...forbidden, ...open],
  }));

const targets = fc.oneof(
  ipv4Forms(0x7f000001).map((host) => ({ host, answers: null })),
  ipv4Forms(0).map((host) => ({ host, answers: null })),
  ipv6Literals.map((host) => ({ host, answers: null })),
  fc
    .constantFrom('localhost', 'LocalHost.', 'api.localhost')
    .map((host) => ({ host, answers: null })),
  resolvedHosts,
);

describe('sendWebhook never reaches a forbidden address (live, loopback not allowed)', () => {
  let trap: CountingServer;
  let redirector: CountingServer;
  let agents: WebhookAgents;

  beforeAll(async () => {
    trap = await countingServer();
    // Answers with the status and Location the request asks for.
    redirector = await countingServer((_url, headers) => ({
      status: Number(headers['x-status']),
      headers: { location: String(headers['x-location']) },
    }));
    agents = createWebhookAgents();
  });

  afterAll(async () => {
    agents.destroy();
    await Promise.all([closeServer(trap.server), closeServer(redirector.server)]);
  });

  it('the generated IPv4 forms really reach the trap when loopback is allowed (control)', async () => {
    const local = fc.sample(ipv4Forms(0x7f000001), { numRuns: 20, seed: 1 });
    for (const host of local) {
      const before = trap.requests;
      const result = await sendWebhook({
        url: `http://${host}:${trap.port}/control`,
        headers: {},
        body: '{}',
        timeoutMs: 2000,
        environment: 'test',
        allowLoopback: true,
        agents,
      });
      expect(result, host).toMatchObject({ status: 200, error: null });
      expect(trap.requests, host).toBe(before + 1);
    }
  });

  it('refuses every URL form, host name answer and mixed answer', async () => {
    const connectionsBefore = trap.connections;
    const requestsBefore = trap.requests;
    await fc.assert(
      fc.asyncProperty(
        targets,
        fc.constantFrom('http', 'https'),
        fc.constantFrom('/', '/hooks', '/a/b?c=d'),
        async (target, scheme, path) => {
          const resolve: Resolver = resolverOf(...(target.answers ?? ['127.0.0.1']));
          const result = await sendWebhook({
            url: `${scheme}://${target.host}:${trap.port}${path}`,
            headers: { 'webhook-id': 'evt_1' },
            body: '{"type":"program_run.completed"}',
            timeoutMs: 1000,
            environment: 'live',
            allowLoopback: false,
            resolve,
            agents,
          });
          expect(result.status).toBeNull();
          expect(['forbidden_address', 'https_required', 'invalid_url']).toContain(
            result.error?.code,
          );
          expect(trap.connections).toBe(connectionsBefore);
        },
      ),
      { numRuns: 100 },
    );
    // Let any late connection land before the final count.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(trap.connections).toBe(connectionsBefore);
    expect(trap.requests).toBe(requestsBefore);
  });

  it('never follows a redirect, whatever the status and target', async () => {
    const connectionsBefore = trap.connections;
    const location = fc.oneof(
      ipv4Forms(0x7f000001).map((host) => `http://${host}:${trap.port}/`),
      ipv6Literals.map((host) => `http://${host}:${trap.port}/`),
      fc.constant('http://169.254.169.254/latest/meta-data/'),
      fc.constant(`/redirected`),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(300, 301, 302, 303, 307, 308),
        location,
        async (status, target) => {
          const before = redirector.requests;
          const result = await sendWebhook({
            url: `http://127.0.0.1:${redirector.port}/hooks`,
            headers: { 'x-status': String(status), 'x-location': target },
            body: '{}',
            timeoutMs: 1000,
            environment: 'test',
            allowLoopback: true,
            agents,
          });
          expect(result.status).toBe(status);
          expect(result.error?.code).toBe('redirect_not_followed');
          expect(redirector.requests).toBe(before + 1);
          expect(trap.connections).toBe(connectionsBefore);
        },
      ),
      { numRuns: 50 },
    );
  });
});
