/**
 * One request written as raw bytes on a connection of its own, for what an HTTP client would never send: a broken
 * request line, a head that never ends, half a body, a head that asks before sending its body.
 */
import net from 'node:net';

export interface RawExchange {
  /** What came back, byte for byte (latin1). */
  text: string;
  /** When (ms after the write) the server closed the connection; null if it had not when the wait ended. */
  closedAfter: number | null;
}

/**
 * Writes `bytes` to the server at `base` and collects the answer until the server closes the connection, `enough`
 * says the text holds what the test wants (the connection is then closed by the test), or `waitMs` passes.
 */
export function rawExchange(
  base: string,
  bytes: string,
  options: { waitMs?: number; enough?: (text: string) => boolean } = {},
): Promise<RawExchange> {
  const { waitMs = 5_000, enough } = options;
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    const started = Date.now();
    let text = '';
    const finish = (closedAfter: number | null) => {
      clearTimeout(limit);
      socket.destroy();
      resolve({ text, closedAfter });
    };
    const limit = setTimeout(() => finish(null), waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (enough?.(text)) finish(null);
    });
    socket.on('close', () => finish(Date.now() - started));
    socket.on('error', () => {});
  });
}
