import { describe, expect, it } from 'vitest';
import { parseShownJson } from './elided-json.js';
import { mismatches, normalize } from './match-shown.js';
import { compareShown, segments } from './shown-output.js';

describe('what a guide shows of an output', () => {
  it('parses JSON trimmed with … and knows where it was trimmed', () => {
    expect(parseShownJson('{ "a": 1, …, "b": [ { "c": "x" }, … ] }')).toEqual({
      kind: 'object',
      elided: true,
      entries: [
        ['a', { kind: 'scalar', value: 1 }],
        [
          'b',
          {
            kind: 'array',
            elided: true,
            items: [
              { kind: 'object', elided: false, entries: [['c', { kind: 'scalar', value: 'x' }]] },
            ],
          },
        ],
      ],
    });
    expect(() => parseShownJson('{ "a": }')).toThrow(/expected a value at line 1/);
  });

  it('compares ids, hashes and times by their form, everything else exactly', () => {
    expect(normalize('prun_6IyvyU97IUKMjREHcYpY4POB at 2026-11-21T07:16:05.975Z')).toBe(
      'prun_* at <time>',
    );
    const shown = parseShownJson(
      '{ "id": "prun_6IyvyU97IUKMjREHcYpY4POB", "status": "waiting", "hash": "sha256:' +
        'a'.repeat(64) +
        '" }',
    );
    expect(
      mismatches(shown, {
        id: 'prun_Zz9yyU97IUKMjREHcYpY4POB',
        status: 'waiting',
        hash: `sha256:${'b'.repeat(64)}`,
      }),
    ).toEqual([]);
    expect(mismatches(shown, { id: 'prun_Zz9yyU97IUKMjREHcYpY4POB', status: 'completed' })).toEqual(
      ['/status: shown "waiting", got "completed"', '/hash: shown, but absent'],
    );
  });

  it('holds untrimmed objects and lists to their exact members, trimmed ones to an ordered part', () => {
    expect(mismatches(parseShownJson('{ "a": 1 }'), { a: 1, b: 2 })).toEqual([
      '/: not shown (and no …): b',
    ]);
    expect(mismatches(parseShownJson('[1, 2]'), [1, 2, 3])).toEqual(['/: shown 2 items, got 3']);
    expect(mismatches(parseShownJson('[1, …, 3]'), [1, 2, 3])).toEqual([]);
    expect(mismatches(parseShownJson('[3, …, 1]'), [1, 2, 3])).toHaveLength(1);
  });

  it('reads curl -i output: status line, stable headers and the body', () => {
    const output =
      'HTTP/1.1 201 Created\ncontent-type: application/json\nidempotent-replayed: true\nrequest-id: req_abcdefghij12\n\n{"object":"program_run","status":"waiting"}\n';
    expect(segments(output).map((segment) => segment.kind)).toEqual([
      'line',
      'line',
      'line',
      'line',
      'json',
    ]);
    const shown = {
      language: 'text',
      code: 'HTTP/1.1 201 Created\ncontent-type: application/json\nidempotent-replayed: true\nrequest-id: req_gxotv3RvtY0syOKAvSI7\n\n{"object":"program_run",…,"status":"waiting"}',
      where: 'guide.md:1',
    };
    expect(compareShown(output, [shown])).toEqual([]);
    expect(compareShown(output.replace('true', 'false'), [shown])).toEqual([
      'guide.md:1: idempotent-replayed shown true, sent false',
    ]);
    expect(compareShown('HTTP/1.1 422 Unprocessable Entity\n', [shown])[0]).toMatch(
      /shows the line "HTTP\/1.1 201 Created", not in the output/,
    );
  });
});
