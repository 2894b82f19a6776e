import { canonicalize } from '../canonical-json.js';
import { fromUtf8 } from '../bytes.js';
import { verifyEnvelope, readEnvelope } from '../envelope/dsse.js';
import type { Ed25519Backend } from '../ed25519/ed25519-backend.js';
import { defaultBackend } from '../ed25519/default-backend.js';
import { isEvidenceEnvironment } from '../environment.js';
import { verifyChain } from '../hash-chain.js';
import { jwkThumbprint, type Jwks } from '../keys/jwk.js';
import { createVerifier } from '../keys/signer.js';
import { parseStrictJson } from '../strict-json.js';
import {
  EVIDENCE_PAYLOAD_TYPE,
  EVIDENCE_PREDICATE_TYPE,
  IN_TOTO_STATEMENT_TYPE,
  type EvidenceBundle,
  type EvidenceStatement,
} from './evidence-bundle.js';
import {
  describeExpectations,
  hasExpectations,
  unmetExpectations,
  type EvidenceExpectations,
} from './evidence-expectations.js';

/** The checks, in the order they run; `expected` runs only when expectations are given. */
export type CheckName =
  'envelope' | 'payload' | 'statement' | 'key' | 'signature' | 'chain' | 'subject' | 'expected';

/** One check and what it found. */
export interface VerificationCheck {
  readonly name: CheckName;
  readonly ok: boolean;
  readonly detail: string;
}

/** Result of {@link verifyEvidence}: every check run, and the bundle once it verified. */
export interface EvidenceVerification {
  readonly ok: boolean;
  readonly checks: readonly VerificationCheck[];
  /** The first check that failed: the first broken link. */
  readonly failure: VerificationCheck | null;
  /**
   * The verified bundle; `null` unless every check passed, so that nothing from a bundle
   * that failed can be mistaken for a verified fact.
   */
  readonly bundle: EvidenceBundle | null;
}

/** Options of {@link verifyEvidence}. */
export interface VerifyEvidenceOptions {
  /** What the evidence must be about (run, environment, scenario, key): the `expected` check. */
  readonly expect?: EvidenceExpectations;
  /** The Ed25519 implementation. @default defaultBackend() */
  readonly backend?: Ed25519Backend;
}

class Stop extends Error {}

/**
 * Verifies an evidence envelope offline against a JWKS: the envelope and its payload
 * type, that the payload is canonical JSON with no duplicate keys, the in-toto
 * statement, that the kid the bundle names is a key of the JWKS (by thumbprint), bound to
 * the bundle's environment if the JWKS marks one, whose signature verifies, every
 * lifecycle record hash and link up to the signed chain head, the statement's subject,
 * and, with `options.expect`, that the bundle is for the expected run, environment,
 * scenario and key. Stops at the first failure and names it. The third argument may also
 * be an Ed25519 backend (the former signature).
 *
 * @example
 * ```ts
 * const result = verifyEvidence(await readFile('bundle.json', 'utf8'), jwks, {
 *   expect: { runId: 'prun_4f1c2d3e4f5a6b7c8d9e0f1a', environment: 'live' },
 * });
 * if (!result.ok) console.error(`${result.failure!.name}: ${result.failure!.detail}`);
 * ```
 */
export function verifyEvidence(
  input: string | object,
  jwks: Jwks,
  options: VerifyEvidenceOptions | Ed25519Backend = {},
): EvidenceVerification {
  const { backend = defaultBackend(), expect = {} } =
    'verifyChecked' in options ? { backend: options } : options;
  const expecting = hasExpectations(expect);
  const checks: VerificationCheck[] = [];
  let bundle: EvidenceBundle | null = null;
  const pass = (name: CheckName, detail: string): void =>
    void checks.push({ name, ok: true, detail });
  const fail = (name: CheckName, detail: string): never => {
    checks.push({ name, ok: false, detail });
    throw new Stop();
  };
  const attempt = <T>(name: CheckName, work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof Stop) throw error;
      return fail(name, error instanceof Error ? error.message : String(error));
    }
  };

  try {
    const value =
      typeof input === 'string' ? attempt('envelope', () => parseStrictJson(input)) : input;
    const { envelope, payload } = attempt('envelope', () => readEnvelope(value));
    if (envelope.payloadType !== EVIDENCE_PAYLOAD_TYPE) {
      fail(
        'envelope',
        `payloadType is "${envelope.payloadType}", expected ${EVIDENCE_PAYLOAD_TYPE}`,
      );
    }
    pass(
      'envelope',
      `DSSE v1, ${envelope.signatures.length} signature(s), ${EVIDENCE_PAYLOAD_TYPE}`,
    );

    const text = attempt('payload', () => fromUtf8(payload));
    const parsed = attempt('payload', () => parseStrictJson(text));
    if (attempt('payload', () => canonicalize(parsed)) !== text)
      fail('payload', 'payload is not RFC 8785 canonical JSON');
    pass('payload', `${payload.length} bytes of canonical JSON`);

    const statement = parsed as Partial<EvidenceStatement>;
    if (statement._type !== IN_TOTO_STATEMENT_TYPE)
      fail('statement', `_type is not ${IN_TOTO_STATEMENT_TYPE}`);
    if (statement.predicateType !== EVIDENCE_PREDICATE_TYPE)
      fail('statement', `predicateType is not ${EVIDENCE_PREDICATE_TYPE}`);
    const predicate = statement.predicate as Partial<EvidenceBundle> | undefined;
    if (
      typeof predicate?.signing?.kid !== 'string' ||
      !Array.isArray(predicate.lifecycle?.records) ||
      !predicate.run
    ) {
      fail('statement', 'the predicate lacks signing.kid, run or lifecycle.records');
    }
    const { environment, livemode } = predicate!.run!;
    if (!isEvidenceEnvironment(environment) || livemode !== (environment === 'live'))
      fail('statement', 'run.environment is not test or live, or run.livemode disagrees with it');
    bundle = predicate as EvidenceBundle;
    pass('statement', `in-toto Statement v1 for ${bundle.run.id}`);

    const kid = bundle.signing.kid;
    const jwk = jwks.keys.find((key) => key.kid === kid);
    if (!jwk) fail('key', `no key ${kid} in the JWKS`);
    if (attempt('key', () => jwkThumbprint(jwk!)) !== kid)
      fail('key', `the JWKS key ${kid} does not have that thumbprint`);
    const bound = jwk!.environment;
    if (bound !== undefined && !isEvidenceEnvironment(bound))
      fail('key', `the JWKS key ${kid} names an unknown environment ${JSON.stringify(bound)}`);
    if (bound !== undefined && bound !== bundle.run.environment)
      fail(
        'key',
        `the JWKS key ${kid} signs ${bound} evidence only, and the bundle claims the ${bundle.run.environment} environment`,
      );
    pass('key', `Ed25519 key ${kid}${bound === undefined ? '' : ` (${bound} evidence)`}`);

    const verifier = createVerifier(jwk!, backend);
    const signed = verifyEnvelope(envelope, (keyid) => (keyid === kid ? verifier : undefined));
    if (!signed.verified.includes(kid)) {
      const reason =
        signed.failures.find((failure) => failure.keyid === kid)?.reason ??
        `no signature by ${kid}`;
      fail('signature', reason);
    }
    pass('signature', `signed by ${kid}`);

    const { records, chain_head: head, length } = bundle.lifecycle;
    const chain = verifyChain(records, { expectedHead: head });
    if (!chain.ok) fail('chain', `record #${chain.sequence ?? chain.index + 1}: ${chain.message}`);
    if (length !== records.length)
      fail('chain', `the bundle says ${length} records but holds ${records.length}`);
    const foreign = records.find((record) => record.run_id !== bundle!.run.id);
    if (foreign) fail('chain', `record #${foreign.sequence} belongs to ${foreign.run_id}`);
    pass(
      'chain',
      `${records.length} records, contiguous, every hash recomputed, head ${head ?? '(empty)'}`,
    );

    const subject = statement.subject?.[0];
    if (
      subject?.name !== `program_run/${bundle.run.id}` ||
      subject.digest.sha256 !== (head ?? '').slice(7)
    ) {
      fail('subject', 'the statement subject is not this run at its chain head');
    }
    pass('subject', `program_run/${bundle.run.id} at sha256 ${(head ?? '').slice(7, 19)}…`);

    if (expecting) {
      const unmet = unmetExpectations(bundle, expect);
      if (unmet.length > 0) fail('expected', unmet.join('; '));
      pass('expected', describeExpectations(expect));
    }
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  const failure = checks.find((check) => !check.ok) ?? null;
  const ok = failure === null && checks.length === (expecting ? 8 : 7);
  return { ok, checks, failure, bundle: ok ? bundle : null };
}
