/**
 * A short wait before refusing an address already past its limit (decision 024), so a flooding script that waits for
 * each answer no longer keeps the event loop busy. Holds are bounded per address and in all; past them the refusal
 * goes out at once and its connection is closed.
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
