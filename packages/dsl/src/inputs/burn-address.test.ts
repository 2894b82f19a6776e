import { describe, expect, it } from 'vitest';
import { BURN_ADDRESS_MESSAGE, isBurnAddress } from './burn-address.js';
import { INPUT_FORMATS } from './formats.js';
import { compileInputSchema } from './input-validator.js';

const EVM_ZERO = '0x0000000000000000000000000000000000000000';
const SOLANA_ZERO = '11111111111111111111111111111111';

describe('the zero (burn) address', () => {
  it('is recognised on EVM chains (any case) and Solana, and nothing else is', () => {
    expect(isBurnAddress(EVM_ZERO)).toBe(true);
    expect(isBurnAddress(EVM_ZERO.toUpperCase().replace('0X', '0x'))).toBe(true);
    expect(isBurnAddress(SOLANA_ZERO)).toBe(true);
    expect(isBurnAddress('0x0000000000000000000000000000000000000001')).toBe(false);
    expect(isBurnAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(isBurnAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(false);
  });

  it.each(['evm-address', 'solana-address', 'public-chain-address'])(
    'is refused by the %s format, though well formed',
    (format) => {
      const zero = format === 'solana-address' ? SOLANA_ZERO : EVM_ZERO;
      expect(INPUT_FORMATS[format]!.validate(zero)).toBe(false);
      expect(INPUT_FORMATS[format]!.explain?.(zero)).toBe(BURN_ADDRESS_MESSAGE);
    },
  );

  it('is named as the reason in the input issue', () => {
    const validator = compileInputSchema({
      type: 'object',
      properties: {
        to: { type: 'string', format: 'public-chain-address' },
        also: { type: 'string', format: 'evm-address' },
      },
    });
    expect(
      validator.validate({ to: EVM_ZERO, also: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed' }),
    ).toEqual([
      { pointer: '/to', code: 'invalid_input', message: BURN_ADDRESS_MESSAGE },
      {
        pointer: '/also',
        code: 'invalid_input',
        message: INPUT_FORMATS['evm-address']!.message,
      },
    ]);
  });
});
