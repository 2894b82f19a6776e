/** The EVM zero address, where anything sent is burnt. */
const EVM_ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** The Solana address of 32 zero bytes (the System Program), where anything sent is lost. */
const SOLANA_ZERO_ADDRESS = '11111111111111111111111111111111';

/**
 * Why a destination is refused although well formed: the zero address (EVM
 * `0x000…000`, Solana `111…1`) is a burn address, and nothing sent there comes back.
 */
export const BURN_ADDRESS_MESSAGE =
  'must not be the zero (burn) address: anything sent there is lost for good';

/**
 * True for the zero (burn) address of EVM chains (in any letter case) or of Solana.
 */
export function isBurnAddress(value: string): boolean {
  return value.toLowerCase() === EVM_ZERO_ADDRESS || value === SOLANA_ZERO_ADDRESS;
}
