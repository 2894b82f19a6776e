import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bytesToHex } from '@noble/hashes/utils.js';
import { isChecksummedEvmAddress, isSolanaAddress, toEip55Checksum } from './address-formats.js';
import { isIban } from './bank-formats.js';

// EIP-55 "Test Cases" and the Solana base58 rule, restated from shared/vectors/addresses.
const eip55Normal = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

// EIP-55's "all caps" and "all lower" cases are addresses whose checksum happens to
// have a single case: they carry a valid checksum like any other.
const eip55SingleCase = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
];

describe('EVM addresses (EIP-55)', () => {
  it.each([...eip55Normal, ...eip55SingleCase])('accepts the checksummed %s', (address) => {
    expect(isChecksummedEvmAddress(address)).toBe(true);
    expect(toEip55Checksum(address.toLowerCase())).toBe(address);
  });

  it.each([
    ['a flipped last character', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'],
    ['a checksummed address written all lowercase', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
    ['a checksummed address written all uppercase', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED'],
    ['39 hex digits', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe'],
    ['no 0x prefix', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
  ])('refuses %s', (_why, address) => {
    expect(isChecksummedEvmAddress(address)).toBe(false);
  });

  it('accepts every checksummed form and refuses any single case flip of a letter', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat(), (bytes, pick) => {
        const address = toEip55Checksum(`0x${bytesToHex(bytes)}`);
        expect(isChecksummedEvmAddress(address)).toBe(true);
        const letters = [...address.slice(2)].flatMap((c, i) =>
          /[a-fA-F]/.test(c) ? [i + 2] : [],
        );
        if (letters.length === 0) return;
        const at = letters[pick % letters.length]!;
        const character = address[at]!;
        const flipped =
          character === character.toUpperCase() ? character.toLowerCase() : character.toUpperCase();
        expect(
          isChecksummedEvmAddress(address.slice(0, at) + flipped + address.slice(at + 1)),
        ).toBe(false);
      }),
    );
  });
});

describe('Solana addresses', () => {
  it.each([
    '11111111111111111111111111111111',
    'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    'JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG',
  ])('accepts %s', (address) => expect(isSolanaAddress(address)).toBe(true));

  it.each([
    '1111111111111111111111111111111',
    'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0',
    'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5Dl',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '1111111111111111111111111111111112',
  ])('refuses %s', (address) => expect(isSolanaAddress(address)).toBe(false));
});

describe('IBAN', () => {
  it('checks ISO 7064 mod-97 digits', () => {
    expect(isIban('GB82WEST12345698765432')).toBe(true);
    expect(isIban('DE89370400440532013000')).toBe(true);
    expect(isIban('GB82WEST12345698765433')).toBe(false);
    expect(isIban('GB82 WEST 1234 5698 7654 32')).toBe(false);
  });
});
