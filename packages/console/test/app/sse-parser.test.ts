// The text/event-stream parser the run stream reader uses.
import { describe, expect, it } from 'vitest';
import { createSseParser } from '../../app/api/sse-parser.js';

describe('createSseParser', () => {
  it('dispatches events on blank lines, skipping comments', () => {
    const parse = createSseParser();
    expect(
      parse(': keep-alive\n\nevent: run\ndata: {"a":1}\nid: 2025-01-01T00:00:00Z\n\n'),
    ).toEqual([{ event: 'run', data: '{"a":1}', id: '2025-01-01T00:00:00Z' }]);
  });

  it('joins chunks split anywhere, CRLF included', () => {
    const text = 'event: run\r\ndata: {"b":2}\r\n\r\nevent: run\rdata: x\r\r\n';
    for (let cut = 0; cut <= text.length; cut += 1) {
      const parse = createSseParser();
      const events = [...parse(text.slice(0, cut)), ...parse(text.slice(cut))];
      expect(
        events.map((event) => event.data),
        `cut at ${cut}`,
      ).toEqual(['{"b":2}', 'x']);
    }
  });

  it('joins multi-line data and defaults the event name', () => {
    const parse = createSseParser();
    expect(parse('data: one\ndata:two\n\n')).toEqual([
      { event: 'message', data: 'one\ntwo', id: null },
    ]);
    expect(parse('event: run\n\n')).toEqual([]); // no data: nothing dispatched
  });
});
