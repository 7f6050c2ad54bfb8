/**
 * A camera flight (client/tree/engine/camera-flight.ts), the glide find-free and find-my-slots make: stepped with the
 * frame's time, it starts where the camera was, keeps gliding until its duration is up, and lands exactly on its
 * target, then is over.
 */
import { describe, expect, it } from 'vitest';
import { cameraCentre, type Camera } from '#shared/tree/camera.ts';
import { CameraFlight } from '#client/tree/engine/camera-flight.ts';

const FROM: Camera = { x: 0, y: 0, scale: 1 };
const TO: Camera = { x: 4000, y: -2000, scale: 0.5 };
const W = 1280;
const H = 800;

describe('a camera flight', () => {
  it('is not under way until it begins, and steps to nothing then', () => {
    const flight = new CameraFlight();
    expect(flight.active).toBe(false);
    expect(flight.step(100, W, H)).toBeNull();
  });

  it('starts at the camera it left, glides on its way, and lands exactly on the target once its time is up', () => {
    const flight = new CameraFlight();
    flight.begin(FROM, TO, 480, 1000);
    expect(flight.active).toBe(true);
    expect(flight.step(1000, W, H)).toEqual(FROM);

    const distanceLeft = (camera: Camera) => {
      const a = cameraCentre(camera, W, H);
      const b = cameraCentre(TO, W, H);
      return Math.hypot(b.x - a.x, b.y - a.y);
    };
    let previous = distanceLeft(FROM);
    for (const now of [1100, 1240, 1400, 1470]) {
      const camera = flight.step(now, W, H)!;
      expect(distanceLeft(camera)).toBeLessThan(previous);
      expect(camera.scale).toBeLessThan(1);
      expect(camera.scale).toBeGreaterThan(0.5);
      previous = distanceLeft(camera);
      expect(flight.active).toBe(true);
    }
    // Halfway in time is halfway in distance: the easing is symmetric.
    expect(distanceLeft(flight.step(1240, W, H)!)).toBeCloseTo(distanceLeft(FROM) / 2, 6);

    // A late frame (the tab was in the background) lands too.
    expect(flight.step(2000, W, H)).toEqual(TO);
    expect(flight.active).toBe(false);
    expect(flight.step(2016, W, H)).toBeNull();
  });

  it('stops where it is when the visitor moves the camera (cancel)', () => {
    const flight = new CameraFlight();
    flight.begin(FROM, TO, 480, 0);
    flight.step(100, W, H);
    flight.cancel();
    expect(flight.active).toBe(false);
    expect(flight.step(200, W, H)).toBeNull();
  });

  it('a new flight replaces one under way, from the camera it is given', () => {
    const flight = new CameraFlight();
    flight.begin(FROM, TO, 480, 0);
    const midway = flight.step(240, W, H)!;
    const elsewhere: Camera = { x: -500, y: 300, scale: 1.5 };
    flight.begin(midway, elsewhere, 480, 240);
    expect(flight.step(240, W, H)).toEqual(midway);
    expect(flight.step(720, W, H)).toEqual(elsewhere);
  });
});
