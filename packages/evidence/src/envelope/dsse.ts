import { base64, utf8 } from '../bytes.js';
import { ProgramrunError } from '../programrun-error.js';
import type { Signer, Verifier } from '../keys/signer.js';

/** A DSSE v1 envelope (secure-systems-lab/dsse). */
export interface DsseEnvelope {
  readonly payloadType: string;
  /** base64 of the payload bytes. */
  readonly payload: string;
  readonly signatures: readonly { readonly keyid?: string; readonly sig: string }[];
}

/** Thrown for an envelope that is not a DSSE envelope. */
export class EnvelopeError extends ProgramrunError {
  constructor(message: string) {
    super('invalid_envelope', message);
  }
}

/**
 * DSSE v1 pre-authentication encoding: `"DSSEv1" SP len(type) SP type SP len(body) SP body`,
 * lengths in bytes as ASCII decimal. This is what is signed, never the bare payload.
 *
 * @example
 * ```ts
 * fromUtf8(preAuthEncoding('http://example.com/HelloWorld', utf8('hello world')));
 * // 'DSSEv1 29 http://example.com/HelloWorld 11 hello world'
 * ```
 */
export function preAuthEncoding(payloadType: string, payload: Uint8Array): Uint8Array {
  const type = utf8(payloadType);
  const header = utf8(`DSSEv1 ${type.length} ${payloadType} ${payload.length} `);
  const encoded = new Uint8Array(header.length + payload.length);
  encoded.set(header);
  encoded.set(payload, header.length);
  return encoded;
}

/**
 * Signs a payload into a DSSE envelope, one signature per signer (`keyid` = the signer's kid).
 *
 * @example
 * ```ts
 * const envelope = signEnvelope(utf8('{"a":1}'), 'application/json', [createSigner(privateJwk)]);
 * ```
 */
export function signEnvelope(
  payload: Uint8Array,
  payloadType: string,
  signers: readonly Signer[],
): DsseEnvelope {
  const message = preAuthEncoding(payloadType, payload);
  return {
    payloadType,
    payload: base64.encode(payload),
    signatures: signers.map((signer) => ({
      keyid: signer.kid,
      sig: base64.encode(signer.sign(message)),
    })),
  };
}

/** Result of checking an envelope's signatures. */
export interface EnvelopeVerification {
  /** kids whose signature verified. */
  readonly verified: readonly string[];
  /** Signatures that did not verify, with why. */
  readonly failures: readonly { readonly keyid: string | null; readonly reason: string }[];
  readonly payload: Uint8Array;
}

/**
 * Reads an envelope's shape, decoding the payload; throws {@link EnvelopeError} when it is
 * not a DSSE envelope.
 *
 * @example
 * ```ts
 * const { payload } = readEnvelope(JSON.parse(text));
 * ```
 */
export function readEnvelope(value: unknown): { envelope: DsseEnvelope; payload: Uint8Array } {
  const envelope = value as Partial<DsseEnvelope> | null;
  if (typeof envelope !== 'object' || envelope === null)
    throw new EnvelopeError('the envelope must be a JSON object');
  if (typeof envelope.payloadType !== 'string')
    throw new EnvelopeError('payloadType must be a string');
  if (typeof envelope.payload !== 'string')
    throw new EnvelopeError('payload must be a base64 string');
  if (!Array.isArray(envelope.signatures) || envelope.signatures.length === 0) {
    throw new EnvelopeError('signatures must be a non-empty list');
  }
  for (const signature of envelope.signatures as unknown[]) {
    const entry = signature as { sig?: unknown; keyid?: unknown } | null;
    if (typeof entry?.sig !== 'string')
      throw new EnvelopeError('every signature needs a base64 sig');
    if (entry.keyid !== undefined && typeof entry.keyid !== 'string')
      throw new EnvelopeError('keyid must be a string');
  }
  let payload: Uint8Array;
  try {
    payload = base64.decode(envelope.payload);
  } catch {
    throw new EnvelopeError('payload is not valid base64');
  }
  return { envelope: envelope as DsseEnvelope, payload };
}

/**
 * Checks every signature of an envelope against the verifier its `keyid` names.
 *
 * @example
 * ```ts
 * const result = verifyEnvelope(envelope, (kid) => (kid === verifier.kid ? verifier : undefined));
 * result.verified; // ['kPrK_…']
 * ```
 */
export function verifyEnvelope(
  value: unknown,
  verifierFor: (keyid: string | null) => Verifier | undefined,
): EnvelopeVerification {
  const { envelope, payload } = readEnvelope(value);
  const message = preAuthEncoding(envelope.payloadType, payload);
  const verified: string[] = [];
  const failures: { keyid: string | null; reason: string }[] = [];
  for (const signature of envelope.signatures) {
    const keyid = signature.keyid ?? null;
    const verifier = verifierFor(keyid);
    if (!verifier) {
      failures.push({ keyid, reason: 'no trusted key with this keyid' });
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = base64.decode(signature.sig);
    } catch {
      failures.push({ keyid, reason: 'sig is not valid base64' });
      continue;
    }
    if (verifier.verify(message, bytes)) verified.push(verifier.kid);
    else failures.push({ keyid, reason: 'signature does not verify' });
  }
  return { verified, failures, payload };
}
