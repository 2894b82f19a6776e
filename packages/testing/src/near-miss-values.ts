/** A value that breaks one field, with what it breaks in words. */
export interface NearMissValue {
  readonly breaks: string;
  readonly value: unknown;
}

type NearMisses = (valid: string | undefined) => readonly NearMissValue[];

const miss = (breaks: string, value: unknown): NearMissValue => ({ breaks, value });

/** `text` with the case of its `pick`-th letter flipped, or undefined when it has none. */
function flipLetter(text: string, pick: number): string | undefined {
  const letters = [...text.matchAll(/[a-fA-F]/g)].map((match) => match.index);
  // The x of 0x is not part of the checksum.
  if (letters.length === 0) return undefined;
  const index = letters[pick % letters.length]!;
  const character = text[index]!;
  const flipped =
    character === character.toUpperCase() ? character.toLowerCase() : character.toUpperCase();
  return `${text.slice(0, index)}${flipped}${text.slice(index + 1)}`;
}

const evmNearMisses: NearMisses = (valid) => {
  const flipped = valid === undefined ? undefined : flipLetter(valid.slice(2), 0);
  return [
    ...(flipped === undefined
      ? []
      : [miss('EVM address with a broken EIP-55 checksum', `0x${flipped}`)]),
    miss('EVM address one hex digit short', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe'),
    miss('EVM address without 0x', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'),
  ];
};

/**
 * Near-miss values for each string format of scenario input schemas: values a careless
 * client might send that the format must refuse (money with three decimals or a minus
 * sign, an IBAN with wrong check digits, an address with a broken checksum…). Each takes
 * a valid value of the format, when there is one, to stay close to it.
 *
 * @example
 * ```ts
 * FORMAT_NEAR_MISSES.money!('125.00'); // [{ breaks: 'money with 3 decimals', value: '125.005' }, …]
 * ```
 */
export const FORMAT_NEAR_MISSES: Readonly<Record<string, NearMisses>> = {
  money: (valid = '125.00') => {
    const whole = valid.split('.')[0]!;
    return [
      miss('money with 3 decimals', `${valid}5`),
      miss('negative money', `-${valid}`),
      miss('zero money', '0.00'),
      miss('money with 1 decimal', valid.slice(0, -1)),
      miss('money without decimals', whole),
      miss('money with a thousands separator', `1,${whole.padStart(3, '0')}.00`),
      miss('money with a leading zero', `0${valid}`),
      miss('money as a JSON number', Number(valid)),
    ];
  },
  decimal: () => [
    miss('negative decimal', '-1.5'),
    miss('decimal with a trailing point', '1.'),
    miss('decimal without a whole part', '.5'),
    miss('decimal in exponent form', '1e5'),
    miss('decimal with a leading zero', '01.5'),
  ],
  'evm-address': evmNearMisses,
  'public-chain-address': (valid) =>
    valid?.startsWith('0x') === true
      ? evmNearMisses(valid)
      : [
          ...evmNearMisses(undefined),
          miss('Solana address one character short', (valid ?? '1'.repeat(32)).slice(0, 31)),
        ],
  'solana-address': (valid = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T') => [
    miss('Solana address with a character outside base58', `0${valid.slice(1)}`),
    miss('Solana address one character short', valid.slice(0, 31)),
  ],
  iban: (valid = 'DE89370400440532013000') => {
    const check = (Number(valid.slice(2, 4)) + 1) % 100;
    return [
      miss(
        'IBAN with wrong check digits',
        `${valid.slice(0, 2)}${String(check).padStart(2, '0')}${valid.slice(4)}`,
      ),
      miss('IBAN in lowercase', valid.toLowerCase()),
      miss('IBAN with a space', `${valid.slice(0, 4)} ${valid.slice(4)}`),
    ];
  },
  bic: (valid = 'DEUTDEFF') => [
    miss('BIC in lowercase', valid.toLowerCase()),
    miss('BIC of 9 characters', `${valid.slice(0, 8)}X`),
    miss('BIC of 4 characters', valid.slice(0, 4)),
  ],
  'currency-code': (valid = 'USD') => [
    miss('currency code in lowercase', valid.toLowerCase()),
    miss('currency code of 2 letters', valid.slice(0, 2)),
    miss('numeric currency code', '840'),
  ],
  'country-code': (valid = 'SG') => [
    miss('country code in lowercase', valid.toLowerCase()),
    miss('alpha-3 country code', `${valid}X`),
  ],
  uuid: (valid = '3f6c1a52-8e0b-4d7a-9c41-2b5e7d9f0a13') => [
    miss('UUID one character short', valid.slice(0, -1)),
    miss('UUID with a non-hex digit', `g${valid.slice(1)}`),
  ],
  date: () => [
    miss('date that does not exist', '2026-02-30'),
    miss('date with month 13', '2026-13-01'),
    miss('date in day/month/year form', '01/06/2026'),
  ],
  'date-time': () => [
    miss('date-time without a time zone', '2026-06-01T08:00:00'),
    miss('date-time at hour 25', '2026-06-01T25:00:00Z'),
  ],
  email: () => [miss('email without @', 'ops.example.com'), miss('email without domain', 'ops@')],
  uri: () => [miss('relative URI', '/callbacks/run'), miss('URI with spaces', 'not a uri')],
};

/**
 * Values of the wrong JSON type for a schema `type` (a name or a list of names).
 *
 * @example
 * ```ts
 * wrongTypeValues('string'); // [{ breaks: 'number instead of string', value: 42 }, …]
 * ```
 */
export function wrongTypeValues(type: unknown): readonly NearMissValue[] {
  const declared = Array.isArray(type) ? (type as unknown[]).map(String) : [String(type)];
  const allowed = new Set(declared);
  // An integer is a number, and 42 is an integer.
  if (allowed.has('number')) allowed.add('integer');
  const candidates: readonly [string, unknown][] = [
    ['string', '7'],
    ['number', 42.5],
    ['integer', 42],
    ['boolean', true],
    ['null', null],
    ['array', []],
    ['object', {}],
  ];
  return candidates
    .filter(
      ([name, value]) => !allowed.has(name) && !(allowed.has('integer') && Number.isInteger(value)),
    )
    .map(([name, value]) => miss(`${name} instead of ${declared.join(' or ')}`, value));
}
