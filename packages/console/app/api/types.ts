// The /v1 objects the console reads, as plain types (the schemas live in @programrun/http,
// which is a server package; the console only needs their shapes).

/** A JSON value as the API sends it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `GET /v1/principal`: who the caller is. */
export interface Principal {
  object: 'principal';
  account: string;
  environment: 'test' | 'live';
  livemode: boolean;
  actor: string;
  credential_id: string | null;
  scopes: string[];
}

/** A page of a list endpoint. */
export interface ListPage<Item> {
  object: 'list';
  url: string;
  data: Item[];
  has_more: boolean;
}

/** The status of a run; `completed`, `faulted` and `cancelled` are final. */
export type RunStatus =
  'pending' | 'running' | 'waiting' | 'suspended' | 'completed' | 'faulted' | 'cancelled';

/** The statuses a run can have, in the order the filters list them. */
export const RUN_STATUSES: readonly RunStatus[] = [
  'pending',
  'running',
  'waiting',
  'suspended',
  'completed',
  'faulted',
  'cancelled',
];

/** A final status: the run will not change again. */
export function isFinalStatus(status: RunStatus): boolean {
  return status === 'completed' || status === 'faulted' || status === 'cancelled';
}

/** A decision on an approval wait so far. */
export interface AwaitingDecision {
  actor: string;
  decision: 'approve' | 'reject';
  label: string | null;
  note: string | null;
  at: string;
}

/** What a waiting run waits for. */
export interface Awaiting {
  kind: 'approval' | 'handoff' | 'timer';
  step: string;
  deadline: string | null;
  party: string | null;
  approvers: string[] | null;
  quorum: number | null;
  approvals: number | null;
  decisions?: AwaitingDecision[] | null;
  handoff_job?: {
    status: 'queued' | 'accepted' | 'exhausted';
    attempts: number;
    next_attempt_at: string | null;
    last_error: { class: string; message: string; status: number | null; at: string } | null;
  };
}

/** A party of the run's posture. */
export interface PostureParty {
  id: string;
  name: string;
  role: string;
  kind: 'appointed' | 'operator' | 'customer';
  status: 'live' | 'simulated' | 'not_live' | 'degraded';
  steps: string[];
  stages: string[];
}

/** The `program_run` object. */
export interface ProgramRun {
  object: 'program_run';
  id: string;
  livemode: boolean;
  scenario_id: string;
  scenario_digest: string;
  status: RunStatus;
  stage: string | null;
  awaiting: Awaiting | null;
  outcome: {
    status: 'faulted' | 'cancelled';
    step: string | null;
    reason: string;
    message: string | null;
  } | null;
  session_id: string | null;
  source_path: string | null;
  inputs: { [key: string]: Json };
  posture: {
    environment: 'test' | 'live';
    asset_track: string;
    execution: 'simulated' | 'partner_executed' | 'not_executable';
    activation: {
      required: boolean;
      status: 'not_required' | 'pending' | 'active';
      reference: string | null;
      activated_at: string | null;
    };
    parties: PostureParty[];
    routes: { step: string; selected: string | null; reason: string | null }[];
  };
  policy: {
    decision: 'allow' | 'review' | 'deny';
    rules: {
      id: string;
      description: string;
      effect: 'deny' | 'review';
      outcome: 'pass' | 'fail' | 'error' | 'pending';
      review: 'approved' | 'rejected' | null;
      message: string | null;
    }[];
    controls: {
      id: string;
      title: string;
      category: string;
      step: string;
      status: 'pending' | 'satisfied' | 'failed' | 'not_applicable';
    }[];
  };
  stages: {
    id: string;
    title: string;
    status: 'pending' | 'active' | 'completed' | 'skipped' | 'faulted' | 'cancelled';
    started_at: string | null;
    completed_at: string | null;
  }[];
  evidence: { chain_head: string | null; exportable: boolean };
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** One hash-chained lifecycle record (`GET /v1/program-runs/{id}/events`). */
export interface LifecycleRecord {
  id: string;
  run_id: string;
  sequence: number;
  type: string;
  stage: string | null;
  step: string | null;
  created: string;
  data: { [key: string]: Json };
  prev: string | null;
  hash: string;
}

/** An event of `GET /v1/events` with its delivery status. */
export interface EventRecord {
  id: string;
  object: 'event';
  type: string;
  sequence: number | null;
  created: string;
  livemode: boolean;
  run: { id: string; scenario_id: string; scenario_digest: string } | null;
  stage: string | null;
  step: string | null;
  data: { [key: string]: Json };
  record_hash: string | null;
  delivery_status: 'none' | 'pending' | 'delivered' | 'failed';
  pending_webhooks: number;
}

/** A scenario step as `GET /v1/scenarios/{id}` lists it. */
export interface ScenarioStep {
  id: string;
  kind: string;
  title: string;
  party: string | null;
}

/** A scenario of the catalogue (`GET /v1/scenarios/{id}`). */
export interface Scenario {
  object: 'scenario';
  id: string;
  name: string;
  version: string;
  title: string;
  summary: string;
  family: string;
  asset_track: string;
  digest: string;
  duration: { min: string; max: string; calendar: string } | null;
  input_schema: { [key: string]: Json };
  example_inputs: { [key: string]: Json };
  parties: { id: string; name: string; role: string; kind: string; availability: string }[];
  stages: { id: string; title: string; steps: ScenarioStep[] }[];
  policy: { id: string; description: string; effect: string }[];
  controls: { id: string; title: string; category: string; step: string }[];
}

/** `GET /v1/test_helpers/clock` and the answer of an advance. */
export interface TestClock {
  object: 'test_clock';
  now: string;
  next_timer_at?: string | null;
  advanced_by?: number;
  timers_fired?: number;
}
