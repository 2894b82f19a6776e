export { ProgramrunError, isProgramrunError } from './programrun-error.js';
export type { ProgramrunErrorOptions } from './programrun-error.js';
export { canonicalize, CanonicalJsonError } from './canonical-json.js';
export type { JsonValue, JsonObject } from './canonical-json.js';
export { parseStrictJson, StrictJsonError, MAX_JSON_DEPTH } from './strict-json.js';
export type { StrictJsonProblem } from './strict-json.js';
export { sha256Digest, canonicalDigest, isSha256Digest } from './digest.js';
export type { Sha256Digest } from './digest.js';
export { hmacSha256, constantTimeEqual } from './hmac.js';
export { linkRecord, verifyChain, assertChain, HashChainError } from './hash-chain.js';
export type {
  ChainLink,
  UnlinkedRecord,
  ChainBreak,
  ChainVerification,
  VerifyChainOptions,
} from './hash-chain.js';
export { verifyEd25519, KeyError } from './ed25519/ed25519-backend.js';
export type { Ed25519Backend } from './ed25519/ed25519-backend.js';
export { nodeBackend, nodeBackendAvailable } from './ed25519/node-backend.js';
export { tweetnaclBackend } from './ed25519/tweetnacl-backend.js';
export { defaultBackend } from './ed25519/default-backend.js';
export {
  jwkThumbprint,
  toPublicJwk,
  publicKeyBytes,
  generateEd25519Jwk,
  privateJwkFromSeed,
} from './keys/jwk.js';
export type { Ed25519PublicJwk, Ed25519PrivateJwk, Jwks } from './keys/jwk.js';
export { createSigner, createVerifier } from './keys/signer.js';
export type { Signer, Verifier } from './keys/signer.js';
export { createKeySet } from './keys/key-set.js';
export type { EvidenceKeySet, KeySetEntry } from './keys/key-set.js';
export {
  preAuthEncoding,
  signEnvelope,
  verifyEnvelope,
  readEnvelope,
  EnvelopeError,
} from './envelope/dsse.js';
export type { DsseEnvelope, EnvelopeVerification } from './envelope/dsse.js';
export {
  EVIDENCE_PAYLOAD_TYPE,
  EVIDENCE_PREDICATE_TYPE,
  EVIDENCE_BUNDLE_SCHEMA,
  IN_TOTO_STATEMENT_TYPE,
} from './bundle/evidence-bundle.js';
export type {
  EvidenceBundle,
  EvidenceStatement,
  EvidenceRecord,
} from './bundle/evidence-bundle.js';
export { toStatement, sealEvidence } from './bundle/seal-evidence.js';
export { verifyEvidence } from './bundle/verify-evidence.js';
export { verificationReport } from './bundle/verification-report.js';
export type { VerificationReport } from './bundle/verification-report.js';
export type {
  EvidenceVerification,
  VerificationCheck,
  CheckName,
  VerifyEvidenceOptions,
} from './bundle/verify-evidence.js';
export type { EvidenceExpectations } from './bundle/evidence-expectations.js';
export { EVIDENCE_ENVIRONMENTS, isEvidenceEnvironment } from './environment.js';
export type { EvidenceEnvironment } from './environment.js';
export { base64, base64url, hex, utf8, fromUtf8 } from './bytes.js';
