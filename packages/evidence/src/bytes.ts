import { base64, base64urlnopad, hex } from '@scure/base';

/** UTF-8 bytes of a string. */
export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The string of UTF-8 bytes; invalid UTF-8 throws. */
export const fromUtf8 = (bytes: Uint8Array): string =>
  new TextDecoder('utf-8', { fatal: true }).decode(bytes);

export { base64, base64urlnopad as base64url, hex };
