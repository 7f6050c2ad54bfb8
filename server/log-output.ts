/**
 * Where the server's log lines go: standard output, written without ever blocking the event loop (decision 026), so a
 * reader that goes away or stops reading never stops or freezes the server. Lines past MAX_QUEUED_BYTES are dropped,
 * and so is everything once the output is closed; either loss is said (in the next line, or once on standard error).
 */
import fs from 'node:fs';

/** What may wait for a slow reader before lines are dropped. */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
/** A full non-blocking pipe answers EAGAIN: the write is tried again after this long. */
const RETRY_MS = 50;

export class LogOutput {
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private writing = false;
  private droppedSinceLastWrite = 0;
  private readonly idle: (() => void)[] = [];
  /** Set once the output can no longer be written at all; every line after is dropped. */
  private lost: Error | null = null;

  constructor(
    private readonly fd: number,
    private readonly noticeFd: number | null,
    private readonly maxQueuedBytes = MAX_QUEUED_BYTES,
  ) {}

  /** Queues one line (pino calls it with each JSON line, its newline included). */
  write(line: string): boolean {
    if (this.lost) return true;
    const bytes = Buffer.from(line);
    if (this.queuedBytes + bytes.length > this.maxQueuedBytes) {
      this.droppedSinceLastWrite++;
      return true;
    }
    if (this.droppedSinceLastWrite > 0) {
      const notice = Buffer.from(
        `${JSON.stringify({ level: 40, time: Date.now(), msg: `log output too slow: ${this.droppedSinceLastWrite} lines dropped` })}\n`,
      );
      this.droppedSinceLastWrite = 0;
      this.queue.push(notice);
      this.queuedBytes += notice.length;
    }
    this.queue.push(bytes);
    this.queuedBytes += bytes.length;
    if (!this.writing) this.writeNext();
    return true;
  }

  /** Resolves when everything queued is written (or dropped), or after `timeoutMs`, whichever comes first. */
  flush(timeoutMs: number): Promise<void> {
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private writeNext(): void {
    if (this.queue.length === 0 || this.lost) {
      this.writing = false;
      for (const done of this.idle.splice(0)) done();
      return;
    }
    this.writing = true;
    const chunk = this.queue.length === 1 ? this.queue[0]! : Buffer.concat(this.queue);
    this.queue = [];
    this.writeChunk(chunk);
  }

  private writeChunk(chunk: Buffer): void {
    fs.write(this.fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error && (error.code === 'EAGAIN' || error.code === 'EINTR')) {
        setTimeout(() => this.writeChunk(chunk), RETRY_MS).unref();
        return;
      }
      if (error) {
        this.loseOutput(error);
        return;
      }
      this.queuedBytes -= written;
      if (written < chunk.length) {
        this.writeChunk(chunk.subarray(written));
        return;
      }
      this.writeNext();
    });
  }

  private loseOutput(error: NodeJS.ErrnoException): void {
    this.lost = error;
    this.queue = [];
    this.queuedBytes = 0;
    this.writeNext();
    if (this.noticeFd === null) return;
    const notice = `gallery: the log output can no longer be written (${error.code ?? error.message}); log lines are dropped from now on, the server keeps running.\n`;
    // Asynchronous too: standard error may be a pipe nobody reads either. Its failure has nowhere left to be told.
    fs.write(this.noticeFd, notice, () => {});
  }
}

/** The server's standard output; its loss is told on standard error. */
export const standardOutput = new LogOutput(1, 2);

/** A line for the person starting the server (start-up messages), through the same output as the log. */
export function say(line: string): void {
  standardOutput.write(`${line}\n`);
}
