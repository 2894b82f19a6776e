import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalDigest, isSha256Digest, sha256Digest } from './digest.js';

describe('sha256Digest', () => {
  it("gives the portable implementation's bytes for any input", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2048 }), (text) => {
        expect(sha256Digest(text)).toBe(`sha256:${bytesToHex(sha256(utf8ToBytes(text)))}`);
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        expect(sha256Digest(bytes)).toBe(`sha256:${bytesToHex(sha256(bytes))}`);
      }),
    );
  });

  it('digests canonical JSON regardless of key order', () => {
    expect(canonicalDigest({ b: 1, a: [true, null] })).toBe(
      canonicalDigest({ a: [true, null], b: 1 }),
    );
    expect(isSha256Digest(canonicalDigest({}))).toBe(true);
    expect(isSha256Digest('sha256:ABC')).toBe(false);
  });
});
