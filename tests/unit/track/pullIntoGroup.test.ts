// A group member's estimate drawn back into its group's blob (src/track/pullIntoGroup.ts): along the way it walks
// only, at most 0.9 of its size a second and half its size in all, never when it is as large as the blob.
import { describe, expect, it } from 'vitest';
import { Track } from '../../../src/track/Track.js';
import { pullIntoGroup } from '../../../src/track/pullIntoGroup.js';
import { trackSettings } from '../../../index.js';

/** A track made from a 20×40 blob at (100, 50), moving at (vx, vy) px/s. */
function member(vx: number, vy: number): Track {
  const t = new Track(1, Float64Array.from([100, 50, 119, 89]), 0, trackSettings({}));
  t.kf.setVelocity(0, vx);
  t.kf.setVelocity(1, vy);
  return t;
}

const frame = 1 / 30;

describe('pullIntoGroup', () => {
  it('draws a member that ran ahead of its blob back along its way by 0.03 of its width a frame at 30 frames a second', () => {
    const t = member(60, 5);
    // The blob ends 10 px behind the member's front edge (x 119) and 5 px above its lower edge (y 89).
    const blob = Float64Array.from([80, 60, 109, 84]);
    pullIntoGroup(t, blob, 0, frame);
    expect(t.kf.p(0)).toBeCloseTo(109.5 - 0.03 * 20, 9);
    // Across its way it is left where it was: a blob that shows only part of its object there says nothing.
    expect(t.kf.p(1)).toBe(69.5);
    expect(t.pulledBy).toBeCloseTo(0.03, 9);
  });

  it('draws by the time passed, not by the frame: two frames at 15 a second draw as far as four at 30', () => {
    const a = member(-60, 0);
    const b = member(-60, 0);
    const blob = Float64Array.from([130, 40, 180, 100]);
    for (let k = 0; k < 2; k++) pullIntoGroup(a, blob, 0, 2 * frame);
    for (let k = 0; k < 4; k++) pullIntoGroup(b, blob, 0, frame);
    expect(a.kf.p(0)).toBeCloseTo(b.kf.p(0), 9);
    expect(a.kf.p(0)).toBeCloseTo(109.5 + 4 * 0.03 * 20, 9);
  });

  it('stops short of the blob: the box is drawn only until it lies wholly inside on that axis', () => {
    const t = member(0, 90);
    // 1 px of its height lies below the blob; 0.03 × 40 = 1.2 px would take it past.
    const blob = Float64Array.from([90, 30, 130, 88]);
    pullIntoGroup(t, blob, 0, frame);
    expect(t.kf.p(1)).toBeCloseTo(68.5, 9);
    expect(t.kf.p(0)).toBe(109.5);
    pullIntoGroup(t, blob, 0, frame);
    expect(t.kf.p(1)).toBeCloseTo(68.5, 9);
  });

  it('draws half its size in all until the track has a blob of its own again, then stops', () => {
    const t = member(60, 0);
    const blob = Float64Array.from([0, 0, 60, 200]);
    for (let k = 0; k < 100; k++) pullIntoGroup(t, blob, 0, frame);
    // 17 frames of 0.6 px, less than 0.5 × 20 = 10 px in all, and the 17th reaches it.
    expect(t.pulledBy).toBeGreaterThanOrEqual(0.5);
    expect(t.kf.p(0)).toBeCloseTo(109.5 - 17 * 0.6, 9);
  });

  it('leaves a member as wide as its blob or wider, and one already inside, where they are', () => {
    const wide = member(60, 0);
    pullIntoGroup(wide, Float64Array.from([60, 40, 79, 100]), 0, frame);
    expect(wide.kf.p(0)).toBe(109.5);
    const inside = member(60, 0);
    pullIntoGroup(inside, Float64Array.from([90, 40, 140, 100]), 0, frame);
    expect(inside.kf.p(0)).toBe(109.5);
    expect(inside.pulledBy).toBe(0);
  });
});
