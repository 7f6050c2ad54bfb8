/** An SMTP server on loopback that keeps every message it receives, for tests of the outbox over real SMTP. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The Message-ID header, e.g. `<outbox-3@localhost>`. */
  messageId: string;
}

export interface SmtpSink {
  port: number;
  received: ReceivedMail[];
  stop: () => Promise<void>;
}

/**
 * `stall`: the server reads each message and never answers it, as one that dies mid-transaction would; nothing
 * counts as delivered and the sender waits. `accept`, asked before each message is kept: false leaves that one
 * unanswered and not delivered (a test may kill its sender meanwhile).
 */
export function startSmtpSink(
  options: { port?: number; stall?: boolean; accept?: (mail: ReceivedMail) => boolean } = {},
): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // No reverse DNS of each client: offline it can take long enough to slow every delivery.
    disableReverseLookup: true,
    // Stopping ends kept-open connections (a pooled sender's) at once instead of waiting for them.
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.stall) return;
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = {
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          messageId: /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim() ?? '',
        };
        if (options.accept && !options.accept(mail)) return;
        received.push(mail);
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () =>
      resolve({
        port: (server.server.address() as AddressInfo).port,
        received,
        stop: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
}
