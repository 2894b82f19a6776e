export { ProgramrunError, isProgramrunError } from './programrun-error.js';
export type { ProgramrunErrorOptions } from './programrun-error.js';
export { canonicalize, CanonicalJsonError } from './canonical-json.js';
export type { JsonValue, JsonObject } from './canonical-json.js';
export { sha256Digest, canonicalDigest, isSha256Digest } from './digest.js';
export type { Sha256Digest } from './digest.js';
export { linkRecord, verifyChain, assertChain, HashChainError } from './hash-chain.js';
export type {
  ChainLink,
  UnlinkedRecord,
  ChainBreak,
  ChainVerification,
  VerifyChainOptions,
} from './hash-chain.js';
