/**
 * The real server (`npm start`'s) against what surrounds it: a log reader that goes away or stops reading must not
 * stop it, and SIGTERM ends it within the README's promise even when a shutdown step hangs (decision 026).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '#drizzle/schema.ts';
import { SHUTDOWN_HARD_LIMIT_MS } from '#server/main.ts';
import { closeDatabase, openDatabase, write } from '#server/db.ts';
import { enqueueMail } from '#server/services/mail/mail.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { startRealServer, stopRealServer, type RealServer } from '../helpers/server/real-server.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/server/smtp-sink.ts';

let server: RealServer | null = null;
let smtp: SmtpSink | null = null;
afterEach(async () => {
  if (server && server.process.exitCode === null && server.process.signalCode === null)
    await stopRealServer(server, 'SIGKILL');
  server = null;
  await smtp?.stop();
  smtp = null;
});

/**
 * `n` requests one after another, each with its own deadline, alternating the health check and a cell that does not
 * exist (a 400 that writes two log lines); answers their statuses (0: no answer).
 */
async function requests(url: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const route = i % 2 === 0 ? '/api/health' : `/api/cell/no-such-cell-${'x'.repeat(200)}`;
    statuses.push(
      await fetch(url + route, { signal: AbortSignal.timeout(4000) }).then(
        (r) => r.status,
        () => 0,
      ),
    );
  }
  return statuses;
}
const answered = (statuses: number[]) => statuses.every((status) => status === 200 || status === 400);

/** Sends SIGTERM and answers how the process ended and how long it took. */
async function terminate(running: RealServer): Promise<{ exit: number | string; ms: number }> {
  const started = Date.now();
  running.process.kill('SIGTERM');
  const exit = await running.exited;
  return { exit, ms: Date.now() - started };
}

describe('a log reader that goes away', () => {
  it(
    'the server keeps answering when its standard output is closed, says so once on standard error, and stops cleanly on SIGTERM',
    { timeout: 60_000 },
    async () => {
      server = await startRealServer(tempDir('gallery-log-reader-'), { LOG_LEVEL: 'info' });
      // The reader goes away: every log line from now on meets a closed pipe.
      server.process.stdout!.destroy();
      expect(answered(await requests(server.url, 20))).toBe(true);
      expect(server.stderr().match(/log output can no longer be written/g)).toHaveLength(1);
      const { exit } = await terminate(server);
      expect(exit).toBe(0);
    },
  );

  it(
    'the server keeps answering when its log reader stops reading (a full pipe), and still stops on SIGTERM',
    { timeout: 60_000 },
    async () => {
      server = await startRealServer(tempDir('gallery-log-stall-'), { LOG_LEVEL: 'info' });
      // The reader is alive but reads nothing more: the pipe fills after some 64 KB of log lines.
      server.process.stdout!.pause();
      expect(answered(await requests(server.url, 600))).toBe(true);
      const { exit, ms } = await terminate(server);
      expect(exit).toBe(0);
      expect(ms).toBeLessThan(SHUTDOWN_HARD_LIMIT_MS);
    },
  );
});

describe('a shutdown step that hangs', () => {
  it(
    `SIGTERM still ends the process by the hard limit (${SHUTDOWN_HARD_LIMIT_MS / 1000} s), exit code 1, naming the step`,
    { timeout: 60_000 },
    async () => {
      // An SMTP server that takes each message and never answers, and a client told to wait a minute for it.
      smtp = await startSmtpSink({ stall: true });
      const dataDir = tempDir('gallery-hang-');
      server = await startRealServer(dataDir, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}/?socketTimeout=60000` });
      const db = openDatabase(path.join(dataDir, 'gallery.db'));
      await write(db, async (tx) =>
        enqueueMail(tx, Date.now(), { to: 'stuck@mail.test', subject: 'Stuck', text: 'Never answered', kind: 'test' }),
      );
      // The outbox runs every 5 s: wait until the message is on its way (the sink has read it and stays silent).
      const sending = () => db.select().from(mailOutbox).get()!.state === 'sending';
      for (let i = 0; i < 200 && !sending(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      closeDatabase(db);
      expect(smtp.received).toHaveLength(0);

      const { exit, ms } = await terminate(server);
      expect(exit).toBe(1);
      expect(ms).toBeGreaterThanOrEqual(SHUTDOWN_HARD_LIMIT_MS - 100);
      expect(ms).toBeLessThan(SHUTDOWN_HARD_LIMIT_MS + 5000);
      expect(server.stdout()).toMatch(/shutdown did not finish in 15 s \(still waiting for running jobs\)/);
    },
  );
});
