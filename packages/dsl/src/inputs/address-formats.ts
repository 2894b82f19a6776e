import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { compileRegex } from '../regex/re2.js';

/**
 * The EIP-55 mixed-case checksum form of a 40-hex-digit address.
 *
 * @example
 * ```ts
 * toEip55Checksum('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed');
 * // '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
 * ```
 */
export function toEip55Checksum(address: string): string {
  const hex = address.replace(/^0x/i, '').toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  let result = '0x';
  for (let index = 0; index < hex.length; index += 1) {
    const character = hex[index]!;
    result += Number.parseInt(hash[index]!, 16) >= 8 ? character.toUpperCase() : character;
  }
  return result;
}

/**
 * True for an EVM address written exactly in its EIP-55 checksum form. An address
 * copied in all lowercase or all uppercase (unless its checksum happens to be that case)
 * is refused: without the checksum a typo cannot be detected, and money must not go there.
 *
 * @example
 * ```ts
 * isChecksummedEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'); // true
 * isChecksummedEvmAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'); // false (no checksum)
 * ```
 */
export function isChecksummedEvmAddress(value: string): boolean {
  if (!compileRegex('^0x[0-9a-fA-F]{40}$').test(value)) return false;
  return toEip55Checksum(value) === value;
}

/**
 * True for a Solana address: base58 that decodes to exactly 32 bytes (base58 has no
 * checksum, so only the shape can be checked).
 *
 * @example
 * ```ts
 * isSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'); // true
 * ```
 */
export function isSolanaAddress(value: string): boolean {
  if (value.length < 32 || value.length > 44) return false;
  try {
    return base58.decode(value).length === 32;
  } catch {
    return false;
  }
}
