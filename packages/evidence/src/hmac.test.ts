import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hex, utf8 } from './bytes.js';
import { constantTimeEqual, hmacSha256 } from './hmac.js';

describe('hmacSha256', () => {
  it('matches RFC 4231 test case 2', () => {
    expect(hex.encode(hmacSha256(utf8('Jefe'), 'what do ya want for nothing?'))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('matches RFC 4231 test case 6 (a key longer than the block)', () => {
    const key = new Uint8Array(131).fill(0xaa);
    expect(
      hex.encode(hmacSha256(key, 'Test Using Larger Than Block-Size Key - Hash Key First')),
    ).toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54');
  });

  it('gives the same bytes natively and through @noble/hashes (what edge runtimes use)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.string(), (key, message) => {
        expect(hmacSha256(key, message)).toEqual(hmac(sha256, key, utf8(message)));
      }),
    );
  });
});

describe('constantTimeEqual', () => {
  it('agrees with ===', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(a === b);
        expect(constantTimeEqual(a, a)).toBe(true);
      }),
    );
  });
});
