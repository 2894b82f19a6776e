import fc from 'fast-check';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { fromMinorUnits, toEip55Checksum } from '@programrun/dsl';

/** IBAN check digits (ISO 7064 mod 97-10) for a country and BBAN. */
function ibanCheckDigits(country: string, bban: string): string {
  let remainder = 0;
  for (const character of `${bban}${country}00`) {
    const code = character.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : character;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return String(98 - remainder).padStart(2, '0');
}

const token = (maxLength: number) =>
  fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    minLength: 1,
    maxLength,
  });

/** https URLs with a host and a path; far cheaper to build than `fc.webUrl()` (~0.7 s). */
const webUrl = fc
  .tuple(
    fc.constantFrom('https', 'http'),
    fc.array(token(12), { minLength: 1, maxLength: 3 }),
    fc.constantFrom('com', 'org', 'io', 'example'),
    fc.array(token(10), { maxLength: 3 }),
  )
  .map(([scheme, labels, tld, path]) => `${scheme}://${labels.join('.')}.${tld}/${path.join('/')}`);

const upper = (length: number) =>
  fc.string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
    minLength: length,
    maxLength: length,
  });

/**
 * Arbitraries for the string formats of scenario input schemas, each producing only
 * valid values (e.g. EIP-55 checksummed addresses, IBANs with correct check digits).
 *
 * @example
 * ```ts
 * fc.sample(FORMAT_ARBITRARIES.money!, 3); // ['12.40', '9310.07', '0.01']
 * ```
 */
export const FORMAT_ARBITRARIES: Readonly<Record<string, fc.Arbitrary<string>>> = {
  money: fc.bigInt({ min: 1n, max: 10n ** 9n }).map((units) => fromMinorUnits(units, 2)),
  decimal: fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 0, max: 6 }))
    .map(([units, scale]) => fromMinorUnits(units, scale)),
  'evm-address': fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((bytes) => toEip55Checksum(`0x${bytesToHex(bytes)}`)),
  'solana-address': fc
    .uint8Array({ minLength: 32, maxLength: 32 })
    .map((bytes) => base58.encode(bytes)),
  'public-chain-address': fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((bytes) => toEip55Checksum(`0x${bytesToHex(bytes)}`)),
  iban: fc
    .tuple(fc.constantFrom('DE', 'GB', 'FR', 'NL'), fc.stringMatching(/^[0-9]{18}$/))
    .map(([country, bban]) => `${country}${ibanCheckDigits(country, bban)}${bban}`),
  bic: fc
    .tuple(upper(4), fc.constantFrom('DE', 'GB', 'SG', 'MY'), upper(2))
    .map((parts) => parts.join('')),
  'currency-code': fc.constantFrom('USD', 'EUR', 'GBP', 'SGD', 'MYR', 'THB', 'IDR', 'JPY'),
  'country-code': fc.constantFrom('US', 'DE', 'GB', 'SG', 'MY', 'TH', 'ID', 'PH', 'AE', 'SA'),
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  date: fc
    .date({ min: new Date('2020-01-01'), max: new Date('2035-12-31'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10)),
  'date-time': fc
    .date({ min: new Date('2020-01-01'), max: new Date('2035-12-31'), noInvalidDate: true })
    .map((date) => date.toISOString()),
  uri: webUrl,
};
