/**
 * Turns on the event loop for synchronous work many requests ask for at once, such as search (decision 024): one piece
 * a loop iteration, so a cell read or health check arriving meanwhile is served between two of them, not behind the
 * whole burst. Past `maxWaiting` waiting, the request is told busy (503, Retry-After) instead of queued without end.
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
