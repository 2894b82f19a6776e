// Compile-time guards: every response schema infers exactly the type the engine (or the
// HTTP layer) answers with, checked as assignability both ways, so neither can change
// without the other. `pnpm typecheck` enforces them; at run time this file does nothing.
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type {
  Engine,
  LifecycleRecord,
  PartnerStatus,
  RunRecord,
  ScenarioEntry,
} from '@programrun/engine';
import type { DsseEnvelope, EVIDENCE_PAYLOAD_TYPE, Jwks } from '@programrun/evidence';
import type { ProblemDocument } from '../errors/problem-response.js';
import type { accessRequestRecordSchema } from './access-request.js';
import type { evidenceEnvelopeSchema, jwksSchema } from './evidence.js';
import type { lifecycleRecordListSchema, lifecycleRecordSchema } from './lifecycle-record.js';
import type { partnerStatusListSchema, partnerStatusSchema } from './partner-status.js';
import type { problemSchema } from './problem.js';
import type { programRunListSchema, programRunSchema } from './program-run.js';
import type { scenarioListSchema, scenarioSchema } from './scenario.js';

/**
 * The JSON shape of a type: `readonly` dropped everywhere (it does not exist on the
 * wire, and zod infers mutable arrays). Objects with a string index signature (the
 * engine's `JsonObject`) are kept as they are.
 */
type Plain<T> = T extends readonly (infer Item)[]
  ? Plain<Item>[]
  : T extends object
    ? string extends keyof T
      ? T
      : { -readonly [Key in keyof T]: Plain<T[Key]> }
    : T;
type Inferred<Schema extends z.ZodType> = Plain<z.output<Schema>>;

type AccessRequestRecord = Awaited<ReturnType<Engine['createAccessRequest']>>['accessRequest'];
// The export endpoint always seals with EVIDENCE_PAYLOAD_TYPE (sealEvidence).
type EvidenceEnvelope = Omit<DsseEnvelope, 'payloadType'> & {
  readonly payloadType: typeof EVIDENCE_PAYLOAD_TYPE;
};

describe('response schemas and the engine types agree', () => {
  it('program_run is RunRecord', () => {
    expectTypeOf<Inferred<typeof programRunSchema>>().toExtend<Plain<RunRecord>>();
    expectTypeOf<Plain<RunRecord>>().toExtend<Inferred<typeof programRunSchema>>();
    expectTypeOf<Inferred<typeof programRunListSchema>['data'][number]>().toExtend<
      Plain<RunRecord>
    >();
  });

  it('lifecycle records are LifecycleRecord', () => {
    expectTypeOf<Inferred<typeof lifecycleRecordSchema>>().toExtend<Plain<LifecycleRecord>>();
    expectTypeOf<Plain<LifecycleRecord>>().toExtend<Inferred<typeof lifecycleRecordSchema>>();
    expectTypeOf<Plain<LifecycleRecord>>().toExtend<
      Inferred<typeof lifecycleRecordListSchema>['data'][number]
    >();
  });

  it('a partner is PartnerStatus', () => {
    expectTypeOf<Inferred<typeof partnerStatusSchema>>().toExtend<Plain<PartnerStatus>>();
    expectTypeOf<Plain<PartnerStatus>>().toExtend<Inferred<typeof partnerStatusSchema>>();
    expectTypeOf<Plain<PartnerStatus>>().toExtend<
      Inferred<typeof partnerStatusListSchema>['data'][number]
    >();
  });

  it('scenario is ScenarioEntry', () => {
    expectTypeOf<Inferred<typeof scenarioSchema>>().toExtend<Plain<ScenarioEntry>>();
    expectTypeOf<Plain<ScenarioEntry>>().toExtend<Inferred<typeof scenarioSchema>>();
    expectTypeOf<Plain<ScenarioEntry>>().toExtend<
      Inferred<typeof scenarioListSchema>['data'][number]
    >();
  });

  it('access_request is AccessRequestRecord', () => {
    expectTypeOf<Inferred<typeof accessRequestRecordSchema>>().toExtend<
      Plain<AccessRequestRecord>
    >();
    expectTypeOf<Plain<AccessRequestRecord>>().toExtend<
      Inferred<typeof accessRequestRecordSchema>
    >();
  });

  it('the evidence envelope is a DsseEnvelope and the key set is Jwks', () => {
    expectTypeOf<Inferred<typeof evidenceEnvelopeSchema>>().toExtend<Plain<EvidenceEnvelope>>();
    expectTypeOf<Plain<EvidenceEnvelope>>().toExtend<Inferred<typeof evidenceEnvelopeSchema>>();
    expectTypeOf<Inferred<typeof jwksSchema>>().toExtend<Plain<Jwks>>();
    expectTypeOf<Plain<Jwks>>().toExtend<Inferred<typeof jwksSchema>>();
    expectTypeOf<Plain<ReturnType<Engine['evidenceKeys']>>>().toExtend<
      Inferred<typeof jwksSchema>
    >();
  });

  it('the problem document is ProblemDocument', () => {
    expectTypeOf<Inferred<typeof problemSchema>>().toExtend<Plain<ProblemDocument>>();
    expectTypeOf<Plain<ProblemDocument>>().toExtend<Inferred<typeof problemSchema>>();
  });
});
