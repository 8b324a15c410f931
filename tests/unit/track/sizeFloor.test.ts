// The size floor the tracker learns from the objects it tracks (src/track/SizeFloor.ts): small blobs near tracked
// objects left out, small objects far from them kept, and the results' blob indices still the caller's.
import { describe, expect, it } from 'vitest';
import { SizeFloor } from '../../../src/track/SizeFloor.js';
import { Track } from '../../../src/track/Track.js';
import { defaultTrackSettings, seenTracks, trackSettings, InvalidOptionError, type Box, type FrameResult, type TrackResults } from '../../../index.js';
import { Tracker } from '../../../extend.js';

/** A confirmed track whose predicted box is `box` (bounds inclusive). */
function trackAt(box: Box): Track {
  const t = new Track(1, Float64Array.from(box), 0, defaultTrackSettings);
  t.state = 'confirmed';
  for (let k = 0; k < 4; k++) t.predicted[k] = box[k];
  return t;
}

describe('SizeFloor', () => {
  it('learns nothing until 32 own blobs are known, then a share of their median box', () => {
    const floor = new SizeFloor(0.2);
    for (let i = 0; i < 31; i++) floor.learn(0, 0, 19 + (i % 3) * 10, 49); // boxes 20, 30 and 40 wide, 50 tall
    floor.settle();
    expect(floor.floor).toBe(0);
    floor.learn(0, 0, 29, 49);
    floor.settle();
    expect(floor.floor).toBe(0.2 * 30 * 50);
  });

  it('leaves out a small blob near a larger track and a tiny one anywhere, keeps a small one far from every track and every large one, with their indices, histograms and places', () => {
    const floor = new SizeFloor(0.2);
    for (let i = 0; i < 40; i++) floor.learn(0, 0, 29, 49); // 30 × 50: floor 300 near a larger track, 150 anywhere
    floor.settle();
    const tracks = [trackAt([100, 100, 129, 149])];
    const boxes: Box[] = [
      [100, 100, 129, 149], // the object
      [131, 110, 136, 149], // a 6 × 40 sliver beside it (240): left out
      [300, 20, 313, 33], // a 14 × 14 blob far from it (196): kept
      [160, 100, 189, 149], // a large blob near it: kept
      [60, 90, 74, 104], // a 15 × 15 blob within the object's size of its box (225): left out
      [300, 200, 309, 209], // a 10 × 10 blob far from it (100), under half the floor: left out
    ];
    const hists = Float64Array.from({ length: 5 * 16 }, (_, i) => i);
    const out = floor.filter(tracks, boxes, hists, hists, null)!;
    expect([...out.source]).toEqual([0, 2, 3]);
    expect(out.boxes).toEqual([boxes[0], boxes[2], boxes[3]]);
    expect([...out.hists!.subarray(16, 32)]).toEqual([...hists.subarray(32, 48)]);
    expect([...out.placesX!.subarray(32, 48)]).toEqual([...hists.subarray(48, 64)]);
    expect(out.placesY).toBeNull();
    // Nothing under the floor near a track, nothing under half of it: nothing copied.
    expect(floor.filter(tracks, [boxes[0], boxes[2], boxes[3]], null, null, null)).toBeNull();
    // A tentative track is no tracked object yet: only the blob under half the floor goes.
    tracks[0].state = 'tentative';
    expect([...floor.filter(tracks, boxes, null, null, null)!.source]).toEqual([0, 1, 2, 3, 4]);
  });
});

/**
 * A 30 × 50 object walking right 2 px a frame, and from frame 40 on a 6 × 40 sliver 2 px off its right edge that
 * the foreground shows apart (what a pillar or a shadow's edge leaves), listed before it; a 14 × 14 object standing
 * far off from frame 20 on, and an 8 × 8 speck (a tape flapping) far off too from frame 50 on.
 */
const scene = (t: number): Box[] => {
  const x = 10 + 2 * t;
  const object: Box = [x, 60, x + 29, 109];
  const sliver: Box = [x + 32, 65, x + 37, 104];
  const small: Box = [280, 10, 293, 23];
  const speck: Box = [20, 200, 27, 207];
  return [...(t >= 40 ? [sliver] : []), object, ...(t >= 20 ? [small] : []), ...(t >= 50 ? [speck] : [])];
};

function run(sizeFloor: number, frames: number): { results: TrackResults[]; boxes: Box[][] } {
  const tracker = new Tracker(trackSettings({ sizeFloor }));
  const boxes = Array.from({ length: frames }, (_, t) => scene(t));
  return { results: boxes.map((b, t) => tracker.update(b, t * 33_333, null, { width: 320, height: 240 })), boxes };
}

describe('Tracker with a size floor', () => {
  it('makes no track of a sliver beside a tracked object or of a speck far off, still tracks a small object far off, and names the caller\'s blobs', () => {
    const without = run(0, 90);
    const confirmedIds = (r: TrackResults[]) => new Set(r.flatMap((f) => f.tracks.filter((k) => k.state === 'confirmed').map((k) => k.id)));
    // Without the floor the sliver and the speck are objects of their own.
    expect(confirmedIds(without.results).size).toBe(4);
    const withFloor = run(0.2, 90);
    expect(confirmedIds(withFloor.results).size).toBe(2);
    // Each track's blob is an index into the frame's own list: the object's box, the small object's box.
    const last = withFloor.results.at(-1)!;
    const frame = withFloor.boxes.at(-1)!;
    const taken = last.tracks.filter((k) => k.state === 'confirmed').map((k) => frame[k.blob]);
    expect(taken).toContainEqual(frame[1]);
    expect(taken).toContainEqual(frame[2]);
    const result = { seq: 89, timeUs: 0, width: 320, height: 240, features: { count: frame.length, x0: frame.map((b) => b[0]), y0: frame.map((b) => b[1]), x1: frame.map((b) => b[2]), y1: frame.map((b) => b[3]) }, tracks: last } as unknown as FrameResult;
    expect(seenTracks(result).map((s) => s.box[0]).sort((a, b) => a - b)).toEqual([frame[1][0], frame[2][0]]);
  });

  it('refuses a share outside [0, 1) with InvalidOptionError', () => {
    for (const sizeFloor of [-0.1, 1, Number.NaN, '0.2' as unknown as number]) expect(() => trackSettings({ sizeFloor })).toThrow(InvalidOptionError);
  });
});
