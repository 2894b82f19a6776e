import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base64, base64url, hex, utf8 } from '../src/bytes.js';
import { verifyEd25519, type Ed25519Backend } from '../src/ed25519/ed25519-backend.js';
import { nodeBackend } from '../src/ed25519/node-backend.js';
import { tweetnaclBackend } from '../src/ed25519/tweetnacl-backend.js';
import { preAuthEncoding, signEnvelope, verifyEnvelope } from '../src/envelope/dsse.js';
import { jwkThumbprint, privateJwkFromSeed, type Ed25519PrivateJwk } from '../src/keys/jwk.js';
import { createSigner, createVerifier } from '../src/keys/signer.js';

const read = <T>(path: string): T =>
  JSON.parse(readFileSync(new URL(`./vectors/${path}`, import.meta.url), 'utf8')) as T;
const backends: readonly Ed25519Backend[] = [nodeBackend, tweetnaclBackend];

interface Rfc8032 {
  secretKeyHex: string;
  publicKeyHex: string;
  messageHex: string;
  signatureHex: string;
}
const rfc8032 = read<Rfc8032[]>('ed25519.json');

interface WycheproofGroup {
  publicKey: { pk: string };
  tests: {
    tcId: number;
    comment: string;
    msg: string;
    sig: string;
    result: 'valid' | 'invalid' | 'acceptable';
  }[];
}
const wycheproof = read<{ testGroups: WycheproofGroup[] }>('wycheproof/ed25519_test.json');
const wycheproofCases = wycheproof.testGroups.flatMap((group) =>
  group.tests.map((test) => ({ ...test, publicKey: group.publicKey.pk })),
);

describe.each(backends.map((backend) => [backend.name, backend] as const))(
  'Ed25519 on %s',
  (_name, backend) => {
    it.each(rfc8032.map((entry, index) => [index + 1, entry] as const))(
      'RFC 8032 §7.1 TEST %i',
      (_index, entry) => {
        const seed = hex.decode(entry.secretKeyHex);
        expect(hex.encode(backend.publicKeyFromSeed(seed))).toBe(entry.publicKeyHex);
        const signature = backend.signerFor(seed)(hex.decode(entry.messageHex));
        expect(hex.encode(signature)).toBe(entry.signatureHex);
        expect(
          verifyEd25519(
            backend,
            hex.decode(entry.publicKeyHex),
            hex.decode(entry.messageHex),
            signature,
          ),
        ).toBe(true);
      },
    );

    it('holds all 151 Wycheproof cases', () => {
      expect(wycheproofCases).toHaveLength(151);
      const wrong = wycheproofCases.filter((test) => {
        const verified = verifyEd25519(
          backend,
          hex.decode(test.publicKey),
          hex.decode(test.msg),
          hex.decode(test.sig),
        );
        return verified !== (test.result === 'valid');
      });
      expect(wrong.map((test) => `tcId ${test.tcId} (${test.comment})`)).toEqual([]);
    });

    it('refuses keys and signatures of the wrong length', () => {
      const entry = rfc8032[0]!;
      const publicKey = hex.decode(entry.publicKeyHex);
      const signature = hex.decode(entry.signatureHex);
      expect(verifyEd25519(backend, publicKey.subarray(0, 31), new Uint8Array(), signature)).toBe(
        false,
      );
      expect(verifyEd25519(backend, publicKey, new Uint8Array(), signature.subarray(0, 63))).toBe(
        false,
      );
      expect(() => backend.signerFor(new Uint8Array(31))).toThrow(/32 bytes/);
    });
  },
);

describe('backends agree', () => {
  it('node:crypto and tweetnacl give byte-identical signatures for any key and message', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 512 }),
        (seed, message) => {
          const fromNode = nodeBackend.signerFor(seed)(message);
          const fromNacl = tweetnaclBackend.signerFor(seed)(message);
          expect(hex.encode(fromNode)).toBe(hex.encode(fromNacl));
          expect(hex.encode(nodeBackend.publicKeyFromSeed(seed))).toBe(
            hex.encode(tweetnaclBackend.publicKeyFromSeed(seed)),
          );
          expect(
            verifyEd25519(tweetnaclBackend, nodeBackend.publicKeyFromSeed(seed), message, fromNode),
          ).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('DSSE vectors', () => {
  const dsse = read<{
    upstream: { payloadType: string; serializedBodyUtf8: string; paeUtf8: string };
    generatedHere_notUpstream: {
      secretKeyHex: string;
      payloadType: string;
      serializedBodyUtf8: string;
      paeHex: string;
      envelope: {
        payload: string;
        payloadType: string;
        signatures: { keyid: string; sig: string }[];
      };
    };
  }>('dsse/dsse-vectors.json');

  it('encodes PAE like the specification', () => {
    const { upstream } = dsse;
    expect(
      new TextDecoder().decode(
        preAuthEncoding(upstream.payloadType, utf8(upstream.serializedBodyUtf8)),
      ),
    ).toBe(upstream.paeUtf8);
    const generated = dsse.generatedHere_notUpstream;
    expect(
      hex.encode(preAuthEncoding(generated.payloadType, utf8(generated.serializedBodyUtf8))),
    ).toBe(generated.paeHex);
  });

  it.each(backends.map((backend) => [backend.name, backend] as const))(
    'reproduces the Ed25519 envelope on %s',
    (_name, backend) => {
      const generated = dsse.generatedHere_notUpstream;
      const key = privateJwkFromSeed(hex.decode(generated.secretKeyHex), backend);
      const envelope = signEnvelope(utf8(generated.serializedBodyUtf8), generated.payloadType, [
        createSigner(key, backend),
      ]);
      expect(envelope).toEqual(generated.envelope);
      const verifier = createVerifier(key, backend);
      expect(
        verifyEnvelope(envelope, (keyid) => (keyid === verifier.kid ? verifier : undefined))
          .verified,
      ).toEqual([verifier.kid]);
    },
  );
});

describe('RFC 8037 vectors', () => {
  const jose = read<{
    privateJwk: Ed25519PrivateJwk;
    publicJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
    rfc7638ThumbprintSha256B64url: string;
    jwsCompact: string;
  }>('jose/rfc8037-ed25519-jws.json');

  it('computes the RFC 7638 thumbprint', () => {
    expect(jwkThumbprint(jose.publicJwk)).toBe(jose.rfc7638ThumbprintSha256B64url);
  });

  it.each(backends.map((backend) => [backend.name, backend] as const))(
    'signs the JWS of Appendix A.4 on %s',
    (_name, backend) => {
      const [header, payload, signature] = jose.jwsCompact.split('.') as [string, string, string];
      const signer = createSigner(
        { ...jose.privateJwk, kid: jose.rfc7638ThumbprintSha256B64url },
        backend,
      );
      expect(base64url.encode(signer.sign(utf8(`${header}.${payload}`)))).toBe(signature);
      expect(
        createVerifier(jose.publicJwk, backend).verify(
          utf8(`${header}.${payload}`),
          base64url.decode(signature),
        ),
      ).toBe(true);
      expect(base64.encode(base64url.decode(signature)).length).toBe(88);
    },
  );
});
