/** A smooth glide of the camera from one view to another (find-free, find-my-slots), stepped once a frame. */
import { interpolateCamera, type Camera } from '#shared/tree/camera.ts';

export class CameraFlight {
  private from: Camera | null = null;
  private to: Camera | null = null;
  private start = 0;
  private duration = 0;

  get active(): boolean {
    return this.to !== null;
  }

  begin(from: Camera, to: Camera, duration: number, now = performance.now()): void {
    this.from = from;
    this.to = to;
    this.start = now;
    this.duration = duration;
  }

  cancel(): void {
    this.from = null;
    this.to = null;
  }

  /** The camera for this moment, or null when no flight is under way; the last step lands exactly on the target. */
  step(now: number, viewportWidth: number, viewportHeight: number): Camera | null {
    if (!this.from || !this.to) return null;
    const t = (now - this.start) / this.duration;
    const camera = interpolateCamera(this.from, this.to, t, viewportWidth, viewportHeight);
    if (t >= 1) this.cancel();
    return camera;
  }
}
