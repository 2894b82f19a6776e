import { isChecksummedEvmAddress, isSolanaAddress } from './address-formats.js';
import { isBic, isIban } from './bank-formats.js';
import { BURN_ADDRESS_MESSAGE, isBurnAddress } from './burn-address.js';
import { compileRegex } from '../regex/re2.js';

/** A custom string format for input schemas: its check and the message callers see. */
export interface InputFormat {
  readonly validate: (value: string) => boolean;
  readonly message: string;
  /** A more precise message for a refused value, when there is one. */
  readonly explain?: (value: string) => string | undefined;
}

/** The zero (burn) address is never a destination, however well formed. */
const notBurnt = (validate: (value: string) => boolean) => (value: string) =>
  validate(value) && !isBurnAddress(value);
const explainBurnt = (value: string): string | undefined =>
  isBurnAddress(value) ? BURN_ADDRESS_MESSAGE : undefined;

// Every format matches on RE2 (linear time), like the input schema's own patterns.
const POSITIVE_MONEY = '^(0|[1-9][0-9]{0,14})\\.[0-9]{2}$';
const DECIMAL = '^(0|[1-9][0-9]{0,29})(\\.[0-9]{1,18})?$';
const matches = (pattern: string, value: string): boolean => compileRegex(pattern).test(value);

/**
 * The string formats scenario input schemas may use besides ajv-formats' standard ones.
 * Money is a decimal string, never a JSON number.
 *
 * @example
 * ```ts
 * INPUT_FORMATS.money!.validate('125.00'); // true
 * ```
 */
export const INPUT_FORMATS: Readonly<Record<string, InputFormat>> = {
  money: {
    validate: (value) => matches(POSITIVE_MONEY, value) && matches('[1-9]', value),
    message:
      'must be a positive amount with exactly two fraction digits, as a string, e.g. "125.00"',
  },
  decimal: {
    validate: (value) => matches(DECIMAL, value),
    message: 'must be a non-negative decimal string, e.g. "1.0825"',
  },
  'evm-address': {
    validate: notBurnt(isChecksummedEvmAddress),
    explain: explainBurnt,
    message:
      'must be an EVM address written in its EIP-55 checksum form (mixed case), so a typo cannot send funds elsewhere',
  },
  'solana-address': {
    validate: notBurnt(isSolanaAddress),
    explain: explainBurnt,
    message: 'must be a Solana address: base58 that decodes to 32 bytes',
  },
  'public-chain-address': {
    validate: notBurnt((value) => isChecksummedEvmAddress(value) || isSolanaAddress(value)),
    explain: explainBurnt,
    message: 'must be an EIP-55 checksummed EVM address or a Solana base58 address',
  },
  iban: {
    validate: isIban,
    message: 'must be an IBAN with valid check digits, uppercase without spaces',
  },
  bic: { validate: isBic, message: 'must be an 8 or 11 character BIC (ISO 9362)' },
  'currency-code': {
    validate: (value) => matches('^[A-Z]{3}$', value),
    message: 'must be an ISO 4217 currency code such as USD',
  },
  'country-code': {
    validate: (value) => matches('^[A-Z]{2}$', value),
    message: 'must be an ISO 3166-1 alpha-2 country code such as SG',
  },
};
