// A minimal text/event-stream parser (the WHATWG rules the console needs: `event`, `data`,
// `id`, comments, CR/LF/CRLF line ends). Pure, fed with decoded text chunks.

/** One dispatched server-sent event. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id: string | null;
}

/** Feeds text chunks; returns the events each chunk completes. */
export function createSseParser(): (chunk: string) => ServerSentEvent[] {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  return (chunk) => {
    buffer += chunk;
    const out: ServerSentEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(buffer);
      // A lone CR at the end may be the first half of CRLF: wait for more.
      if (!match || (match[0] === '\r' && match.index === buffer.length - 1)) break;
      const line = buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
      if (line === '') {
        if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n'), id });
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    return out;
  };
}
