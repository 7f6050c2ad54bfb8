/**
 * A short wait before the refusal of an address that is already past its limit (decision 024). A script that floods
 * and waits for each answer is slowed to a few requests a second per connection, at the cost of a timer each, so it
 * no longer keeps the event loop busy; a person past the limit hardly notices a second more. The holds are bounded
 * per address and in all: past them a refusal is sent at once and its connection closed, so holding can never
 * grow without limit.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface RefusalHoldOptions {
  /** How long a refusal is held (ms). */
  holdMs: number;
  /** Refusals held at once for one address. */
  perAddress: number;
  /** Refusals held at once in all. */
  total: number;
}

export const REFUSAL_HOLD: RefusalHoldOptions = { holdMs: 1000, perAddress: 32, total: 2000 };

export class RefusalHold {
  private readonly byAddress = new Map<string, number>();
  private heldNow = 0;

  constructor(private readonly options: RefusalHoldOptions = REFUSAL_HOLD) {}

  /** Waits before a refusal to `address` and answers true; answers false at once when the holds are full. */
  async hold(address: string): Promise<boolean> {
    const mine = this.byAddress.get(address) ?? 0;
    if (mine >= this.options.perAddress || this.heldNow >= this.options.total) return false;
    this.byAddress.set(address, mine + 1);
    this.heldNow++;
    try {
      await sleep(this.options.holdMs);
    } finally {
      this.heldNow--;
      const left = this.byAddress.get(address)! - 1;
      if (left === 0) this.byAddress.delete(address);
      else this.byAddress.set(address, left);
    }
    return true;
  }
}
