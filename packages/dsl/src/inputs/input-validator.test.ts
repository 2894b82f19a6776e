import { describe, expect, it } from 'vitest';
import { compileInputSchema, InputSchemaError } from './input-validator.js';

const walletSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'destination_wallet_address'],
  properties: {
    amount: { type: 'string', format: 'money' },
    destination_wallet_address: { type: 'string', format: 'evm-address' },
    memo: { type: 'string', maxLength: 10 },
  },
} as const;

describe('compileInputSchema', () => {
  const validator = compileInputSchema(walletSchema);

  it('accepts valid inputs', () => {
    expect(
      validator.validate({
        amount: '125.00',
        destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      }),
    ).toEqual([]);
  });

  it('reports every issue with a pointer and a human message', () => {
    const issues = validator.validate({ amount: 125, memo: 'x'.repeat(11), extra: true });
    expect([...issues].sort((a, b) => a.pointer.localeCompare(b.pointer))).toEqual([
      { pointer: '/amount', code: 'invalid_input', message: 'must be string' },
      { pointer: '/destination_wallet_address', code: 'missing_input', message: 'is required' },
      { pointer: '/extra', code: 'unknown_input', message: 'is not an input of this scenario' },
      { pointer: '/memo', code: 'invalid_input', message: 'must NOT have more than 10 characters' },
    ]);
  });

  it.each(['0.00', '1', '1.5', '1.000', '-1.00', '01.00', '1e2'])(
    'refuses the amount %j',
    (amount) => {
      const issues = validator.validate({
        amount,
        destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      });
      expect(issues).toEqual([
        {
          pointer: '/amount',
          code: 'invalid_input',
          message:
            'must be a positive amount with exactly two fraction digits, as a string, e.g. "125.00"',
        },
      ]);
    },
  );

  it('refuses an address without an EIP-55 checksum', () => {
    const issues = validator.validate({
      amount: '1.00',
      destination_wallet_address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    });
    expect(issues[0]).toMatchObject({
      pointer: '/destination_wallet_address',
      code: 'invalid_input',
    });
    expect(issues[0]!.message).toContain('EIP-55');
  });

  it('refuses schemas ajv cannot compile or that are not objects', () => {
    expect(() => compileInputSchema({ type: 'array' })).toThrow(InputSchemaError);
    expect(() =>
      compileInputSchema({ type: 'object', properties: { a: { type: 'strin' } } }),
    ).toThrow(InputSchemaError);
  });
});
