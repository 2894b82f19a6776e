import { canonicalize } from '../canonical-json.js';
import { utf8 } from '../bytes.js';
import { signEnvelope, type DsseEnvelope } from '../envelope/dsse.js';
import type { Signer } from '../keys/signer.js';
import {
  EVIDENCE_PAYLOAD_TYPE,
  EVIDENCE_PREDICATE_TYPE,
  IN_TOTO_STATEMENT_TYPE,
  type EvidenceBundle,
  type EvidenceStatement,
} from './evidence-bundle.js';

/**
 * The in-toto Statement of a bundle: its subject is the run, identified by the sha-256
 * of its lifecycle chain head.
 *
 * @example
 * ```ts
 * toStatement(bundle).subject[0].name; // 'program_run/prun_…'
 * ```
 */
export function toStatement(bundle: EvidenceBundle): EvidenceStatement {
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [
      {
        name: `program_run/${bundle.run.id}`,
        digest: { sha256: (bundle.lifecycle.chain_head ?? 'sha256:').slice(7) },
      },
    ],
    predicateType: EVIDENCE_PREDICATE_TYPE,
    predicate: bundle,
  };
}

/**
 * Seals a bundle: the RFC 8785 bytes of its in-toto Statement, signed into a DSSE
 * envelope with `payloadType` `application/vnd.programrun.evidence.v1+json`. The signer's
 * kid must be the one named in the bundle, so it is covered by the signature too.
 *
 * @example
 * ```ts
 * const envelope = sealEvidence(bundle, keySet.signer);
 * ```
 */
export function sealEvidence(
  bundle: EvidenceBundle,
  signer: Signer,
  extraSigners: readonly Signer[] = [],
): DsseEnvelope {
  if (bundle.signing.kid !== signer.kid) {
    throw new Error(`the bundle names kid ${bundle.signing.kid} but is signed with ${signer.kid}`);
  }
  const payload = utf8(canonicalize(toStatement(bundle)));
  return signEnvelope(payload, EVIDENCE_PAYLOAD_TYPE, [signer, ...extraSigners]);
}
