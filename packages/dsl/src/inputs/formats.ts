import { isChecksummedEvmAddress, isSolanaAddress } from './address-formats.js';
import { isBic, isIban } from './bank-formats.js';

/** A custom string format for input schemas: its check and the message callers see. */
export interface InputFormat {
  readonly validate: (value: string) => boolean;
  readonly message: string;
}

const POSITIVE_MONEY = /^(0|[1-9][0-9]{0,14})\.[0-9]{2}$/;
const DECIMAL = /^(0|[1-9][0-9]{0,29})(\.[0-9]{1,18})?$/;

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
    validate: (value) => POSITIVE_MONEY.test(value) && /[1-9]/.test(value),
    message:
      'must be a positive amount with exactly two fraction digits, as a string, e.g. "125.00"',
  },
  decimal: {
    validate: (value) => DECIMAL.test(value),
    message: 'must be a non-negative decimal string, e.g. "1.0825"',
  },
  'evm-address': {
    validate: isChecksummedEvmAddress,
    message:
      'must be an EVM address written in its EIP-55 checksum form (mixed case), so a typo cannot send funds elsewhere',
  },
  'solana-address': {
    validate: isSolanaAddress,
    message: 'must be a Solana address: base58 that decodes to 32 bytes',
  },
  'public-chain-address': {
    validate: (value) => isChecksummedEvmAddress(value) || isSolanaAddress(value),
    message: 'must be an EIP-55 checksummed EVM address or a Solana base58 address',
  },
  iban: {
    validate: isIban,
    message: 'must be an IBAN with valid check digits, uppercase without spaces',
  },
  bic: { validate: isBic, message: 'must be an 8 or 11 character BIC (ISO 9362)' },
  'currency-code': {
    validate: (value) => /^[A-Z]{3}$/.test(value),
    message: 'must be an ISO 4217 currency code such as USD',
  },
  'country-code': {
    validate: (value) => /^[A-Z]{2}$/.test(value),
    message: 'must be an ISO 3166-1 alpha-2 country code such as SG',
  },
};
