import { compileRegex } from '../regex/re2.js';

/**
 * True for an IBAN whose ISO 7064 mod-97 check digits hold (spaces not allowed).
 *
 * @example
 * ```ts
 * isIban('GB82WEST12345698765432'); // true
 * isIban('GB82WEST12345698765433'); // false
 * ```
 */
export function isIban(value: string): boolean {
  if (!compileRegex('^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$').test(value)) return false;
  const rearranged = value.slice(4) + value.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const code = character.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : character;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/**
 * True for an ISO 9362 BIC (8 or 11 characters).
 *
 * @example
 * ```ts
 * isBic('DEUTDEFF500'); // true
 * ```
 */
export function isBic(value: string): boolean {
  return compileRegex('^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$').test(value);
}
