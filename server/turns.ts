/**
 * Turns on the event loop for synchronous work that many requests may ask for at once (a search is one SQLite
 * query of about a millisecond): one piece of work a loop iteration, so everything else that arrived meanwhile (a
 * cell read, a health check) is served between two of them instead of behind the whole burst. At most `maxWaiting`
 * wait; beyond that the request is told busy (503, Retry-After) rather than queued without end (decision 024).
 */
import { ErrorCode } from '#shared/errors.ts';
import { AppError } from './errors.ts';

interface Turn {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class Turns {
  private readonly line: Turn[] = [];
  private scheduled = false;

  constructor(private readonly maxWaiting: number) {}

  get waiting(): number {
    return this.line.length;
  }

  take<T>(work: () => T): Promise<T> {
    if (this.line.length >= this.maxWaiting) {
      return Promise.reject(
        new AppError(ErrorCode.Busy, 'Search is very busy right now. Try again in a moment.', undefined, 1),
      );
    }
    return new Promise<T>((resolve, reject) => {
      this.line.push({ work, resolve: (value) => resolve(value as T), reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.line.length === 0) return;
    this.scheduled = true;
    // setImmediate runs after the loop has read every socket that was ready: the others get their turn first.
    setImmediate(() => {
      this.scheduled = false;
      const turn = this.line.shift();
      if (turn) {
        try {
          turn.resolve(turn.work());
        } catch (error) {
          turn.reject(error);
        }
      }
      this.schedule();
    });
  }
}
