// Inputs and partner answers on both sides of a scenario's gates: what the conditions read
// (gateReads), answers moved under and over (changeAnswerData), amounts at and beside the
// rules' literals (boundaryAmounts), text at its length bounds (boundaryLengths), and the
// edges they let the search reach.
import { compareDecimal, initialRunContext } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerDataChanges,
  boundaryAmounts,
  boundaryLengths,
  changeAnswerData,
  exploreEdges,
  gateReads,
  inputGates,
  inputsArbitrary,
  loadCompiledScenario,
  scenarioEdges,
} from '../src/index.js';
import { containsReads, withContainedText } from '../src/contains-inputs.js';

const bankPayout = await loadCompiledScenario(
  new URL('../../../scenarios/bank-payout@v1.yaml', import.meta.url),
);
const reserveCycle = await loadCompiledScenario(
  new URL('../../../scenarios/reserve-usd-cycle@v1.yaml', import.meta.url),
);
const qr = await loadCompiledScenario(
  new URL('../../../scenarios/qr-merchant-settlement@v1.yaml', import.meta.url),
);
const bridge = await loadCompiledScenario(
  new URL('../../../scenarios/bridge-routing@v1.yaml', import.meta.url),
);
const refund = await loadCompiledScenario(
  new URL('./fixtures/merchant-refund@v1.yaml', import.meta.url),
);

describe('gateReads', () => {
  it('finds the handoff data, money literals and input literals the conditions compare', () => {
    const reads = gateReads(bankPayout);
    expect(Object.fromEntries(reads.handoffFields)).toEqual({
      hold_funds: ['held_amount'],
      screen_beneficiary: ['result'],
      verify_payee: ['name_match'],
      confirm_credit: ['credited_amount'],
    });
    expect(reads.moneyLiterals).toEqual(['50000.00', '100000.00', '1000000.00']);
    expect(reads.inputLiterals.get('currency')).toEqual(['EUR', 'GBP', 'USD']);
    expect(reads.inputLiterals.get('account_scheme')).toEqual(['local', 'iban']);
  });

  it('changes each field read around its own value, the inputs and the literals it meets', () => {
    expect(answerDataChanges(gateReads(refund))).toEqual([
      { field: 'captured_amount', to: 'under' },
      { field: 'captured_amount', to: 'over' },
      { field: 'captured_amount', to: 'under', of: 'refund_amount' },
      { field: 'captured_amount', to: 'over', of: 'refund_amount' },
      { field: 'refunded_amount', to: 'under' },
      { field: 'refunded_amount', to: 'over' },
      { field: 'refunded_amount', to: 'under', of: 'refund_amount' },
      { field: 'refunded_amount', to: 'over', of: 'refund_amount' },
    ]);
    const reserve = gateReads(reserveCycle);
    // A peg band: one minor unit outside each end.
    expect(reserve.fieldLiterals.get('price')).toEqual(['0.9950', '1.0050']);
    expect(answerDataChanges(reserve)).toContainEqual({
      field: 'price',
      to: 'value',
      value: '1.0051',
    });
    // Read only through a record that adds it up: the extremes.
    expect(reserve.recordedFields).toContain('supply');
    expect(answerDataChanges(reserve)).toContainEqual({
      field: 'supply',
      to: 'value',
      value: '999999999999.99',
    });
  });
});

describe('a tolerance of a reconciled sum', () => {
  it('reads the share of an input a field is held to, and the sum it is part of', () => {
    const reads = gateReads(bridge);
    expect(reads.fieldShares.get('fee')).toEqual([{ input: 'amount', factor: '0.005' }]);
    expect(reads.fieldSums.get('fee')).toEqual([{ field: 'received_amount', input: 'amount' }]);
    expect(reads.fieldSums.get('received_amount')).toEqual([{ field: 'fee', input: 'amount' }]);
    expect(answerDataChanges(reads)).toContainEqual({
      field: 'fee',
      to: 'over',
      of: 'amount',
      times: '0.005',
      balance: { field: 'received_amount', of: 'amount' },
    });
  });

  it('moves a field beside a share of an input while the other field keeps the sum', () => {
    const data = { fee: '0.00', received_amount: '48000.00' };
    const over = changeAnswerData(
      data,
      {
        field: 'fee',
        to: 'over',
        of: 'amount',
        times: '0.005',
        balance: { field: 'received_amount', of: 'amount' },
      },
      { amount: '48000.00' },
    );
    expect(over).toEqual({ fee: '240.01', received_amount: '47759.99' });
    expect(
      changeAnswerData(
        data,
        { field: 'fee', to: 'under', of: 'amount', times: '0.005' },
        {
          amount: '48000.00',
        },
      ),
    ).toEqual({ fee: '239.99', received_amount: '48000.00' });
  });

  it('lets the search reach the fee review, and its rejection and lapse', async () => {
    const cases = await exploreEdges(bridge);
    const taken = new Set(cases.flatMap((found) => found.edges));
    for (const edge of [
      'destination_gate rule fee_within_tolerance fail',
      'destination_gate reject',
      'destination_gate timeout',
    ])
      expect(taken).toContain(edge);
    expect(taken.size).toBe(scenarioEdges(bridge).length);
  });
});

describe('inputGates', () => {
  it('writes the text a condition looks for into an input, so the hub corridor is reached', () => {
    const reads = containsReads(qr);
    expect(reads.map(({ field, order }) => [field, order])).toEqual([
      ['merchant_qr_payload', 0],
      ['merchant_qr_payload', 0],
      ['merchant_qr_payload', 0],
      ['merchant_qr_payload', 4],
    ]);
    expect(reads[0]!.expression).toBe('"5802" + inputs.merchant_country');
    const philippines = { ...(qr.definition.example_inputs as JsonObject), merchant_country: 'PH' };
    const written = withContainedText(
      qr,
      philippines,
      initialRunContext({ environment: 'test', inputs: philippines }),
      reads.slice(0, 1),
    );
    expect(written.merchant_qr_payload).toContain('5802PH');
    expect(qr.inputs.validate(written)).toEqual([]);
    // Only the corridor's own route, that no valid input reaches, is left untaken.
    expect(inputGates(qr).untaken).toEqual(['route_scheme no_route']);
  });

  it('finds inputs for each edge the inputs alone decide, and names those none takes', () => {
    const gates = inputGates(bankPayout);
    expect(gates.untaken).toEqual(['select_rail no_route']);
    expect(gates.witnesses.get('select_rail route local_clearing')).toMatchObject({
      account_scheme: 'local',
    });
    // Decided through a record the inputs compute: the payer corridor's linkage.
    expect(inputGates(qr).witnesses.has('route_scheme route bilateral_link')).toBe(true);
  });
});

describe('changeAnswerData', () => {
  it('moves amounts by one minor unit of their own scale, and changes other values', () => {
    const data = { amount: '480.00', rate: '0.9995', ok: true, result: 'clear', count: 3 };
    expect(changeAnswerData(data, { field: 'amount', to: 'under' }).amount).toBe('479.99');
    expect(changeAnswerData(data, { field: 'rate', to: 'over' }).rate).toBe('0.9996');
    expect(changeAnswerData(data, { field: 'ok', to: 'under' }).ok).toBe(false);
    expect(changeAnswerData(data, { field: 'result', to: 'over' }).result).toBe('not_clear');
    expect(changeAnswerData(data, { field: 'count', to: 'under' }).count).toBe(2);
    expect(changeAnswerData(data, { field: 'missing', to: 'under' }).missing).toBe('0.00');
    expect(changeAnswerData(data, { field: 'amount', to: 'over' }).rate).toBe('0.9995');
  });

  it('puts a decimal strictly under, and strictly over, where it was', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 6 }))
      .map(([units, scale]) => {
        const digits = units.toString().padStart(scale + 1, '0');
        return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
      });
    fc.assert(
      fc.property(decimal, (value) => {
        const under = changeAnswerData({ value }, { field: 'value', to: 'under' }).value as string;
        const over = changeAnswerData({ value }, { field: 'value', to: 'over' }).value as string;
        expect(compareDecimal(under, value)).toBe(-1);
        expect(compareDecimal(over, value)).toBe(1);
      }),
    );
  });
});

describe('boundaryAmounts', () => {
  it('lists each money literal and one cent either side, for each money input', () => {
    expect(boundaryAmounts(bankPayout, gateReads(bankPayout)).get('amount')).toEqual([
      '49999.99',
      '50000.00',
      '50000.01',
      '99999.99',
      '100000.00',
      '100000.01',
      '999999.99',
      '1000000.00',
      '1000000.01',
    ]);
  });
});

describe('boundaryLengths', () => {
  it('lists plain text at its minLength and maxLength, counted in code points', () => {
    const lengths = boundaryLengths(bankPayout);
    // Formats, patterns and enums have their own generators; plain text has bounds only.
    expect([...lengths.keys()].sort()).toEqual(['beneficiary_name', 'remittance_information']);
    const name = lengths.get('beneficiary_name')!.map((text) => [...text].length);
    expect(name).toEqual([2, 140]);
    expect(lengths.get('remittance_information')!.map((text) => [...text].length)).toEqual([140]);
    for (const [field, texts] of lengths)
      for (const text of texts) {
        const inputs = { ...bankPayout.definition.example_inputs, [field]: text };
        expect(bankPayout.inputs.validate(inputs)).toEqual([]);
      }
  });

  it('are among the inputs a check generates, beyond the 40 characters of random text', () => {
    const reads = gateReads(bankPayout);
    const boundaries = new Map([
      ...boundaryAmounts(bankPayout, reads),
      ...boundaryLengths(bankPayout),
    ]);
    const lengths = fc
      .sample(inputsArbitrary(bankPayout, boundaries), { seed: 3, numRuns: 300 })
      .map((inputs) => [...(inputs.beneficiary_name as string)].length);
    expect(lengths).toContain(2);
    expect(lengths).toContain(140);
  });
});

describe('the search with gate inputs and answers', () => {
  it('covers every edge of merchant-refund@v1, rule failures and reviews included', async () => {
    const found = new Set((await exploreEdges(refund)).flatMap((found) => found.edges));
    for (const edge of [
      // A captured amount one cent under the refund: the capture rule fails.
      'capture_gate rule within_captured_amount fail',
      // A refund one cent short: the refund gate's rule fails and goes to review.
      'refund_gate rule refunded_in_full fail',
      'refund_gate reject',
      // 2,500.01 needs the risk desk's review, which can reject or lapse.
      'refund_limits reject',
      'refund_limits timeout',
    ])
      expect(found).toContain(edge);
    expect(found.size).toBe(scenarioEdges(refund).length);
  });
});
