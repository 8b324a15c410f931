// Group members placed by their grays (src/track/placeMembers.ts): with spatial histograms a group's blob says where
// each gray's pixels lie, and a member whose grays the others do not share is measured where its own bins' pixels are.
import { describe, expect, it } from 'vitest';
import { Track } from '../../../src/track/Track.js';
import { placeMembers } from '../../../src/track/placeMembers.js';
import { trackSettings } from '../../../index.js';
import { darkStopsInLight, placedBlob } from '../../support/placeScene.js';

const blob = placedBlob;

/** A track made from a 20×40 blob with its left edge at x0, seen alone with its pixels (800) in bin `bin`. */
function member(id: number, x0: number, bin: number): Track {
  const bb = Float64Array.from([x0, 50, x0 + 19, 89]);
  const t = new Track(id, bb, 0, trackSettings({}));
  t.state = 'confirmed';
  const own = blob([[bin, 800, x0 + 9.5, 69.5]]);
  t.observe(own.h, 0);
  t.observePlaces(own.x, own.y, 0, bb, 0);
  return t;
}

describe('placeMembers', () => {
  it('measures a dark and a light member where their own grays lie in the group blob, not where they coasted to', () => {
    const dark = member(1, 100, 2);
    const light = member(2, 130, 14);
    // Their estimates drifted (each coasting at a velocity from before the group); the blob shows where they are.
    dark.kf.setVelocity(0, 0);
    light.kf.setVelocity(0, 0);
    const g = blob([
      [2, 800, 125.5, 69.5],
      [14, 800, 112.5, 69.5],
    ]);
    placeMembers([dark, light], 2, 0, g.h, g.x, g.y, new Float64Array(4));
    expect(dark.placed && light.placed).toBe(true);
    // A Kalman update toward the place: half the way or more from the estimate (109.5, 139.5) to it (125.5, 112.5).
    expect(Math.abs(dark.kf.p(0) - 125.5)).toBeLessThanOrEqual(0.5 * Math.abs(109.5 - 125.5));
    expect(Math.abs(light.kf.p(0) - 112.5)).toBeLessThanOrEqual(0.5 * Math.abs(139.5 - 112.5));
    // Not placed, each stays where it coasted.
    const still = member(3, 100, 2);
    expect(still.kf.p(0)).toBe(109.5);
  });

  it('leaves members whose grays another member shares, a member half hidden, and one whose bins hold another\'s pixels, to coast', () => {
    const a = member(1, 100, 13);
    const b = member(2, 130, 13);
    const g = blob([[13, 1600, 120, 69.5]]);
    placeMembers([a, b], 2, 0, g.h, g.x, g.y, new Float64Array(4));
    expect(a.placed || b.placed).toBe(false);
    expect(a.kf.p(0)).toBe(109.5);

    const dark = member(3, 100, 2);
    const light = member(4, 130, 14);
    // The dark one shows 400 of its 800 pixels (behind the light one): its pixels' mean is off its centre.
    const h = blob([
      [2, 400, 104.5, 69.5],
      [14, 800, 139.5, 69.5],
    ]);
    placeMembers([dark, light], 2, 0, h.h, h.x, h.y, new Float64Array(4));
    expect(dark.placed).toBe(false);
    expect(light.placed).toBe(true);

    // Half as many pixels again as its own in the dark one's bin: another dark object no track follows is there.
    const dark2 = member(5, 100, 2);
    const light2 = member(6, 130, 14);
    const k = blob([
      [2, 1200, 115, 69.5],
      [14, 800, 139.5, 69.5],
    ]);
    placeMembers([dark2, light2], 2, 0, k.h, k.x, k.y, new Float64Array(4));
    expect(dark2.placed).toBe(false);
    expect(light2.placed).toBe(true);
  });

  it('places by where each bin lay in the member\'s own blobs: a figure whose dark legs lie below its light body', () => {
    // Seen alone: body (bin 12, 600 px) centred 8 px above the box's centre, legs (bin 3, 200 px) 16 px below it.
    const bb = Float64Array.from([100, 50, 119, 89]);
    const t = new Track(1, bb, 0, trackSettings({}));
    t.state = 'confirmed';
    const own = blob([
      [12, 600, 109.5, 61.5],
      [3, 200, 109.5, 85.5],
    ]);
    t.observe(own.h, 0);
    t.observePlaces(own.x, own.y, 0, bb, 0);
    const other = member(2, 140, 7);
    // In the group the figure stands 10 px lower and 6 px to the right.
    const g = blob([
      [12, 600, 115.5, 71.5],
      [3, 200, 115.5, 95.5],
      [7, 800, 149.5, 69.5],
    ]);
    const box = new Float64Array(4);
    // The figure last, so that the scratch box holds its place.
    placeMembers([other, t], 2, 0, g.h, g.x, g.y, box);
    expect(t.placed).toBe(true);
    // The place measured: its box centred on (115.5, 79.5).
    expect((box[0] + box[2]) / 2).toBeCloseTo(115.5, 9);
    expect((box[1] + box[3]) / 2).toBeCloseTo(79.5, 9);
  });

  it('through Tracker.update: a dark object that stops in a light one\'s blob keeps its track on it, which coasting loses', () => {
    // tests/support/placeScene.ts: a dark object stops 40 frames in front of a light one, in their one blob.
    const dark = (tracks: ReturnType<typeof darkStopsInLight>) => tracks.find((t) => t.id === 1)!;
    expect(() => trackSettings({ placeByGray: 1 as unknown as boolean })).toThrow(/placeByGray/);
    const placed = dark(darkStopsInLight(true));
    const coasted = dark(darkStopsInLight(false));
    // At frame 59 the dark object's centre is at x 133.5, stopped.
    expect(Math.abs(placed.cx - 133.5)).toBeLessThan(3);
    expect(Math.abs(coasted.cx - 133.5)).toBeGreaterThan(10);
  });
});
