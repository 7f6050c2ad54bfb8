/** Reads a Server-Sent Events stream over real HTTP, as a browser's EventSource would, for the live-tree tests. */
import http from 'node:http';

export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/** An open event stream: its status, the events read so far, and a wait for the next one. */
export interface OpenStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  events: SseEvent[];
  ended: Promise<void>;
  next: (predicate?: (event: SseEvent) => boolean, timeoutMs?: number) => Promise<SseEvent>;
  close: () => void;
}

export function openStream(base: string, path: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, base), { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      const events: SseEvent[] = [];
      const waiters: (() => void)[] = [];
      let buffer = '';
      let body = '';
      const ended = new Promise<void>((done) => res.on('end', done).on('close', done));
      res.on('data', (chunk: string) => {
        body += chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = { id: null, event: 'message', data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('event: ')) event.event = line.slice(7);
            else if (line.startsWith('data: ')) {
              event.data = line.slice(6);
              hasData = true;
            }
          }
          if (hasData) events.push(event);
          for (const wake of waiters.splice(0)) wake();
        }
      });
      let read = 0;
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        get body() {
          return body;
        },
        events,
        ended,
        async next(predicate = () => true, timeoutMs = 3000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            while (read < events.length) {
              const event = events[read++]!;
              if (predicate(event)) return event;
            }
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`no event within ${timeoutMs} ms (got: ${JSON.stringify(events)})`);
            await new Promise<void>((wake) => {
              waiters.push(wake);
              setTimeout(wake, left);
            });
          }
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}
