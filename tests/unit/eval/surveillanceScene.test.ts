// The tracking evaluation's scenes in color: the same objects and truth as the gray clip of the seed, the gray
// frames the color ones' luma, the objects colored (no longer one gray per object), and the gray clip without
// color left as it was (no RGB frames made).
import { describe, expect, it } from 'vitest';
import { surveillanceScene } from '../../../src/eval/surveillanceScene.js';

/** The first frame at which two clips differ (by bytes, or in count), -1 where they are the same: toEqual on whole
 * frames compares element by element and took most of these tests' time. */
function firstDifferentFrame(a: readonly Uint8Array[], b: readonly Uint8Array[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (!a[i] || !b[i] || Buffer.compare(Buffer.from(a[i].buffer, a[i].byteOffset, a[i].byteLength), Buffer.from(b[i].buffer, b[i].byteOffset, b[i].byteLength)) !== 0) return i;
  }
  return -1;
}

const options = { frames: 40, objects: 6, pillars: 1, shadows: true };

describe('surveillanceScene in color', () => {
  const gray = surveillanceScene(3, options);
  const color = surveillanceScene(3, { ...options, color: true });

  it('has the gray clip\'s objects and truth, and gray frames that are the color frames\' luma', () => {
    expect(gray.rgb).toEqual([]);
    expect(color.truth).toEqual(gray.truth);
    expect(color.pillars).toEqual(gray.pillars);
    expect(color.rgb).toHaveLength(options.frames);
    for (const t of [0, 20, 39]) {
      const [rgb, y] = [color.rgb[t], color.frames[t]];
      expect(rgb).toHaveLength(3 * y.length);
      for (let p = 0; p < y.length; p++) expect(y[p]).toBe(Math.round(0.299 * rgb[3 * p] + 0.587 * rgb[3 * p + 1] + 0.114 * rgb[3 * p + 2]));
    }
  });

  it('colors the objects: their channels differ inside their boxes', () => {
    const { width: W } = color;
    const spreads = color.truth
      .filter((b) => b.frame === 30 && b.visible === 1 && b.x1 - b.x0 > 4)
      .map((b) => {
        let sum = 0;
        let n = 0;
        for (let y = b.y0 + 2; y <= b.y1 - 2; y++) {
          for (let x = b.x0 + 2; x <= b.x1 - 2; x++) {
            const q = 3 * (y * W + x);
            const px = color.rgb[30].subarray(q, q + 3);
            sum += Math.max(...px) - Math.min(...px);
            n++;
          }
        }
        return sum / n;
      });
    expect(spreads.length).toBeGreaterThan(0);
    // Saturations 0.1–0.7 of levels 20–240: a mean spread of a few levels (dark, pale) to over a hundred.
    expect(Math.max(...spreads)).toBeGreaterThan(20);
  });
});

describe('surveillanceScene down a street', () => {
  const options = { width: 200, height: 160, frames: 120, objects: 8, pillars: 0, shadows: false, stopAndGo: 0, noise: 0, perspective: 0.5, upDown: 0.5, size: [40, 60] as [number, number] };
  const scene = surveillanceScene(7, options);
  const byId = new Map<number, typeof scene.truth>();
  for (const b of scene.truth) byId.set(b.id, [...(byId.get(b.id) ?? []), b]);

  it('keeps every object at its drawn size without perspective', () => {
    const flat = surveillanceScene(7, { ...options, perspective: 0, upDown: 0 });
    for (const b of flat.truth.filter((b) => b.visible === 1)) expect(b.y1 - b.y0 + 1).toBeGreaterThanOrEqual(40);
  });

  it('makes objects smaller the higher their feet are, by up to the perspective', () => {
    const whole = scene.truth.filter((b) => b.visible === 1);
    expect(whole.length).toBeGreaterThan(100);
    for (const b of whole) {
      // Scale at the feet: 1 at the bottom, 0.5 at the top; heights drawn 40–60 at scale 1, rounded.
      const sc = 1 - 0.5 * (1 - (b.y1 + 1) / options.height);
      const h = b.y1 - b.y0 + 1;
      expect(h).toBeGreaterThanOrEqual(Math.floor(40 * sc) - 1);
      expect(h).toBeLessThanOrEqual(Math.ceil(60 * sc) + 1);
    }
  });

  it('walks some objects up or down the frame and the others across it', () => {
    let upDown = 0;
    let across = 0;
    for (const list of byId.values()) {
      const seen = list.filter((b) => b.visible > 0.9);
      if (seen.length < 2) continue;
      const [p, q] = [seen[0], seen.at(-1)!];
      const dx = Math.abs((q.x0 + q.x1) / 2 - (p.x0 + p.x1) / 2);
      const dy = Math.abs(q.y1 - p.y1);
      if (dy > 2 * dx) upDown++;
      if (dx > 2 * dy) across++;
    }
    expect(upDown).toBeGreaterThan(0);
    expect(across).toBeGreaterThan(0);
  });

  it('counts the rows outside the frame as not visible for objects coming in at the top or bottom', () => {
    const clipped = scene.truth.filter((b) => (b.y0 === 0 || b.y1 === options.height - 1) && b.x0 > 0 && b.x1 < options.width - 1);
    expect(clipped.some((b) => b.visible < 1)).toBe(true);
  });
});

describe('surveillanceScene at another frame rate (timeStep)', () => {
  // Noise off: then a pixel's level depends only on the scene's time, and the same scene rendered at twice the rate
  // has every frame of the first at its even frames.
  const flat = { frames: 60, objects: 8, pillars: 1, shadows: true, stopAndGo: 0.5, noise: 0, ramp: 0.002, step: [25, 0.8] as [number, number] };
  const street = { ...flat, width: 200, height: 120, perspective: 0.5, upDown: 0.5 };

  for (const [name, options] of [['flat', flat], ['down a street', street]] as const) {
    it(`${name}: at timeStep 0.5, frame 2t is frame t of the clip at 1, and frame 2t + 1 lies between`, () => {
      const once = surveillanceScene(11, options);
      const twice = surveillanceScene(11, { ...options, frames: 2 * options.frames, timeStep: 0.5 });
      expect(twice.frames).toHaveLength(2 * options.frames);
      expect(twice.pillars).toEqual(once.pillars);
      for (let t = 0; t < options.frames; t++) expect(Buffer.from(twice.frames[2 * t]).equals(once.frames[t]), `frame ${t}`).toBe(true);
      const at = (s: typeof once, frame: number) => new Map(s.truth.filter((b) => b.frame === frame).map((b) => [b.id, b]));
      let between = 0;
      for (let t = 0; t + 1 < options.frames; t++) {
        const [a, b] = [at(once, t), at(once, t + 1)];
        const [even, odd] = [at(twice, 2 * t), at(twice, 2 * t + 1)];
        expect([...even.values()].map(({ frame, ...box }) => ({ ...box, frame: frame / 2 }))).toEqual([...a.values()]);
        for (const [id, m] of odd) {
          const [p, q] = [a.get(id), b.get(id)];
          if (!p || !q || p.visible < 1 || q.visible < 1 || m.visible < 1) continue;
          // Box edges rounded from positions half way: within a pixel of the two frames' range.
          for (const k of ['x0', 'y0', 'x1', 'y1'] as const) {
            expect(m[k], `object ${id} at ${2 * t + 1}: ${k}`).toBeGreaterThanOrEqual(Math.min(p[k], q[k]) - 1);
            expect(m[k], `object ${id} at ${2 * t + 1}: ${k}`).toBeLessThanOrEqual(Math.max(p[k], q[k]) + 1);
          }
          between++;
        }
      }
      expect(between).toBeGreaterThan(50);
    });
  }

  it('refuses a timeStep outside (0, 1]', () => {
    expect(() => surveillanceScene(1, { frames: 4, timeStep: 2 })).toThrow(RangeError);
    expect(() => surveillanceScene(1, { frames: 4, timeStep: 0 })).toThrow(RangeError);
  });
});

// Walkers shaped and moving otherwise than the boxes the tracker's rules were worked out on (trackEval --walkers
// people): the same walkers at the same places without `wander`, people's heads and legs where boxes were solid, and
// a pace and way that vary with it.
describe('surveillanceScene with people that wander', () => {
  const options = { width: 240, height: 160, frames: 150, objects: 5, pillars: 0, shadows: false, stopAndGo: 0, noise: 0, size: [50, 70] as [number, number] };
  const boxes = surveillanceScene(9, options);
  const people = surveillanceScene(9, { ...options, bodies: true });
  const wandering = surveillanceScene(9, { ...options, wander: 0.4 });

  it('draws people over the same boxes: the head half as wide, the rest of its rows the scene', () => {
    expect(people.truth).toEqual(boxes.truth);
    const { width: W } = people;
    // Boxes wholly in view with the walker's first frame (it comes in from a side) as the scene without it.
    let checked = 0;
    for (const b of people.truth.filter((b) => b.frame === 100 && b.visible === 1 && b.x0 > 0 && b.x1 < W - 1 && b.x1 - b.x0 >= 16)) {
      const first = Math.min(...people.truth.filter((q) => q.id === b.id).map((q) => q.frame));
      if (first === 0) continue;
      const empty = people.frames[0];
      const [frame, boxFrame] = [people.frames[100], boxes.frames[100]];
      const overlapped = people.truth.some((q) => q.frame === 100 && q.id !== b.id && q.x1 >= b.x0 && q.x0 <= b.x1 && q.y1 >= b.y0 && q.y0 <= b.y1);
      if (overlapped || people.truth.some((q) => q.frame === 0 && q.x1 >= b.x0 && q.x0 <= b.x1 && q.y1 >= b.y0 && q.y0 <= b.y1)) continue;
      const head = b.y0 + 1;
      // The head row's corners are the scene; the box's were the walker.
      expect(frame[head * W + b.x0]).toBe(empty[head * W + b.x0]);
      expect(frame[head * W + b.x1]).toBe(empty[head * W + b.x1]);
      expect(boxFrame[head * W + b.x0]).not.toBe(empty[head * W + b.x0]);
      // Its middle column is the head, not the scene.
      const mid = Math.round((b.x0 + b.x1) / 2);
      expect(frame[head * W + mid]).not.toBe(empty[head * W + mid]);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('opens and closes the legs as it walks: the middle column of the legs is the scene in some frames only', () => {
    const { width: W } = people;
    const id = people.truth.find((b) => b.frame === 60 && b.visible === 1)!.id;
    let open = 0;
    let shut = 0;
    for (const b of people.truth.filter((b) => b.id === id && b.visible === 1)) {
      const [y, x] = [b.y1 - 2, Math.round((b.x0 + b.x1) / 2)];
      if (people.truth.some((q) => q.frame === b.frame && q.id !== id && q.x1 >= x && q.x0 <= x && q.y1 >= y && q.y0 <= y)) continue;
      if (people.frames[b.frame][y * W + x] === boxes.frames[0][y * W + x]) open++;
      else shut++;
    }
    expect(open).toBeGreaterThan(3);
    expect(shut).toBeGreaterThan(3);
  });

  it('swings a walker\'s pace by up to wander and bends its way', () => {
    const { width: W } = boxes;
    /** A walker's x0 and y0 by frame, where its box is wholly in view. */
    const at = (s: typeof boxes, id: number) => new Map(s.truth.filter((b) => b.id === id && b.x0 > 0 && b.x1 < W - 1).map((b) => [b.frame, [b.x0, b.y0]]));
    /** Its moves over 10 frames, on x and on y. */
    const moves = (m: Map<number, number[]>, axis: number) => [...m.keys()].filter((f) => f % 10 === 0 && m.has(f + 10)).map((f) => m.get(f + 10)![axis] - m.get(f)![axis]);
    let swung = 0;
    let bent = 0;
    for (const id of new Set(boxes.truth.map((b) => b.id))) {
      const [straight, wandered] = [at(boxes, id), at(wandering, id)];
      const [a, w] = [moves(straight, 0), moves(wandered, 0)];
      if (a.length < 6 || w.length < 6) continue;
      // Straight: each 10-frame move the same to the pixels' rounding; wandering: within wander of the walker's speed.
      expect(Math.max(...a) - Math.min(...a)).toBeLessThanOrEqual(1);
      const speed = Math.abs(a[0]);
      for (const d of w) expect(Math.abs(d)).toBeLessThanOrEqual(speed * 1.4 + 1);
      if (Math.max(...w) - Math.min(...w) > 0.2 * speed) swung++;
      const [ya, yw] = [moves(straight, 1), moves(wandered, 1)];
      if (Math.max(...yw) - Math.min(...yw) > Math.max(...ya) - Math.min(...ya) + 1) bent++;
    }
    expect(swung).toBeGreaterThan(0);
    expect(bent).toBeGreaterThan(0);
  });

  it('refuses a wander of its whole speed or more', () => {
    expect(() => surveillanceScene(1, { frames: 4, wander: 1 })).toThrow(RangeError);
    expect(() => surveillanceScene(1, { frames: 4, wander: -0.1 })).toThrow(RangeError);
  });
});

// Vehicles (trackEval --walkers vehicles): a traffic camera's objects, wider than tall and faster, on the walkers'
// starts and ways, so that a counting line's rules worked out on people-shaped boxes are tried on another shape.
describe('surveillanceScene with vehicles', () => {
  const options = { width: 320, height: 240, frames: 200, objects: 8, pillars: 0, shadows: false, stopAndGo: 0, noise: 0 };
  const boxes = surveillanceScene(5, options);
  const vehicles = surveillanceScene(5, { ...options, vehicles: true });
  const { width: W, height: H } = vehicles;
  /** Boxes wholly in view, by object. */
  const whole = (s: typeof boxes) => s.truth.filter((b) => b.x0 > 0 && b.x1 < W - 1 && b.y0 > 0 && b.y1 < H - 1);
  const firstFrame = (s: typeof boxes, id: number) => Math.min(...s.truth.filter((b) => b.id === id).map((b) => b.frame));

  it('draws boxes 1.8–2.6 times as wide as tall, 0.55 of a walker\'s height, from the same starts and sides', () => {
    const ids = [...new Set(whole(vehicles).map((b) => b.id))];
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) {
      const v = whole(vehicles).find((b) => b.id === id)!;
      const [w, h] = [v.x1 - v.x0 + 1, v.y1 - v.y0 + 1];
      // Pixel rounding of both sides: a pixel either way.
      expect(w / h).toBeGreaterThanOrEqual((1.8 * (h - 1)) / h - 1 / h);
      expect(w / h).toBeLessThanOrEqual((2.6 * (h + 1)) / h + 1 / h);
      const walker = boxes.truth.find((b) => b.id === id && b.y1 < H - 1)!;
      expect(Math.abs(h - 0.55 * (walker.y1 - walker.y0 + 1))).toBeLessThanOrEqual(1);
      expect(firstFrame(vehicles, id)).toBe(firstFrame(boxes, id));
      // Coming in from the same side: its first box touches the same border.
      const [a, b] = [vehicles.truth.find((q) => q.id === id)!, boxes.truth.find((q) => q.id === id)!];
      expect(a.x0 === 0).toBe(b.x0 === 0);
    }
  });

  it('drives 1.6 times as fast as the walker it replaces', () => {
    let checked = 0;
    for (const id of new Set(whole(vehicles).map((b) => b.id))) {
      const move = (s: typeof boxes) => {
        const seen = whole(s).filter((b) => b.id === id);
        if (seen.length < 20) return null;
        const [a, b] = [seen[0], seen[seen.length - 1]];
        return (b.x0 - a.x0) / (b.frame - a.frame);
      };
      const [v, p] = [move(vehicles), move(boxes)];
      if (v === null || p === null) continue;
      expect(Math.abs(v / p - 1.6)).toBeLessThan(0.1);
      checked++;
    }
    expect(checked).toBeGreaterThan(2);
  });

  it('gives a vehicle windows unlike its body and dark wheels', () => {
    let checked = 0;
    for (const b of whole(vehicles).filter((q) => q.frame % 10 === 0 && q.y1 - q.y0 >= 20)) {
      if (vehicles.truth.some((q) => q.frame === b.frame && q.id !== b.id && q.x1 >= b.x0 && q.x0 <= b.x1 && q.y1 >= b.y0 && q.y0 <= b.y1)) continue;
      const f = vehicles.frames[b.frame];
      const [h, w] = [b.y1 - b.y0 + 1, b.x1 - b.x0 + 1];
      const body = f[Math.round(b.y0 + 0.7 * h) * W + Math.round(b.x0 + 0.5 * w)];
      const window = f[Math.round(b.y0 + 0.3 * h) * W + Math.round(b.x0 + 0.5 * w)];
      const wheel = f[(b.y1 - 1) * W + Math.round(b.x0 + 0.22 * w)];
      expect(Math.abs(window - body)).toBeGreaterThan(60);
      expect(wheel).toBeLessThan(50);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('turns vehicles driving up or down a street scene to about as wide as tall', () => {
    const street = surveillanceScene(5, { ...options, width: 640, height: 360, perspective: 0.5, upDown: 0.5, vehicles: true, frames: 120 });
    const sides = new Map<number, number[]>();
    for (const b of street.truth.filter((q) => q.x0 > 0 && q.x1 < 639 && q.y0 > 0 && q.y1 < 359)) sides.set(b.id, [b.x1 - b.x0 + 1, b.y1 - b.y0 + 1]);
    const ratios = [...sides.values()].map(([w, h]) => w / h);
    // Across: 1.8–2.6; up or down: 1–1.3 (rounding aside).
    expect(ratios.some((r) => r < 1.45)).toBe(true);
    expect(ratios.some((r) => r > 1.7)).toBe(true);
    for (const r of ratios) expect(r > 0.9 && r < 2.75).toBe(true);
  });

  it('refuses vehicles with bodies', () => {
    expect(() => surveillanceScene(1, { frames: 4, vehicles: true, bodies: true })).toThrow(RangeError);
  });
});

// Swaying foliage (trackEval --situations extra): patches where a pixel shows leaf and gap by turns, a background
// one Gaussian a pixel cannot hold.
describe('surveillanceScene with swaying foliage', () => {
  const options = { width: 320, height: 240, frames: 120, objects: 0, pillars: 0, shadows: false, stopAndGo: 0, noise: 0 };
  const still = surveillanceScene(3, options);
  const swaying = surveillanceScene(3, { ...options, sway: 3 });

  it('leaves a clip as it was with sway 0, objects and truth included', () => {
    const withObjects = { ...options, frames: 40, objects: 6, noise: 4 };
    const a = surveillanceScene(5, withObjects);
    const b = surveillanceScene(5, { ...withObjects, sway: 0 });
    expect(firstDifferentFrame(b.frames, a.frames)).toBe(-1);
    expect(b.truth).toEqual(a.truth);
    // With sway, the same objects at the same places.
    expect(surveillanceScene(5, { ...withObjects, sway: 2 }).truth).toEqual(a.truth);
  });

  it('makes pixels that go from leaf to gap and back within patches, the rest of the scene still', () => {
    const { width: W, height: H } = still;
    let swinging = 0;
    let changed = 0;
    let outside = 0;
    for (let p = 0; p < W * H; p += 7) {
      const levels = swaying.frames.map((f) => f[p]);
      const [lo, hi] = [Math.min(...levels), Math.max(...levels)];
      if (hi - lo === 0) {
        // Outside the patches the still scene's pixel, every frame; inside, one that stays leaf or gap throughout.
        const off = levels[0] - still.frames[0][p];
        expect([0, -35, 30]).toContain(off);
        if (off === 0) outside++;
        continue;
      }
      changed++;
      // Inside: the scene 35 darker (leaf) or 30 lighter (gap), by turns more than once.
      expect(hi - lo).toBe(65);
      let turns = 0;
      for (let t = 1; t < levels.length; t++) if (levels[t] !== levels[t - 1]) turns++;
      if (turns >= 4) swinging++;
    }
    // Three discs of 18–40 px radius: a few per cent of the frame, most of their pixels turning several times.
    expect(changed).toBeGreaterThan((0.01 * W * H) / 7);
    expect(changed).toBeLessThan((0.2 * W * H) / 7);
    expect(swinging).toBeGreaterThan(changed / 3);
    expect(outside).toBeGreaterThan((0.8 * W * H) / 7);
  });
});

// A shaking camera (trackEval --situations extra): the whole picture and the truth's boxes moved each frame.
describe('surveillanceScene with a shaking camera', () => {
  const options = { width: 320, height: 240, frames: 60, objects: 6, pillars: 1, shadows: false, stopAndGo: 0, noise: 0 };
  const still = surveillanceScene(4, options);
  const shaking = surveillanceScene(4, { ...options, shake: 1.5 });

  it('leaves a clip as it was with shake 0', () => {
    const b = surveillanceScene(4, { ...options, shake: 0 });
    expect(firstDifferentFrame(b.frames, still.frames)).toBe(-1);
    expect(b.truth).toEqual(still.truth);
  });

  it('moves every truth box of a frame by one offset, which changes from frame to frame, and the picture with it', () => {
    const { width: W, height: H } = still;
    const offsets = new Map<number, string>();
    for (let i = 0; i < still.truth.length; i++) {
      const [a, b] = [still.truth[i], shaking.truth[i]];
      expect([b.frame, b.id]).toEqual([a.frame, a.id]);
      // Boxes clear of the border by 5 px move whole: their offset is the frame's.
      if (a.x0 < 5 || a.y0 < 5 || a.x1 > W - 6 || a.y1 > H - 6) continue;
      const off = `${b.x0 - a.x0},${b.y0 - a.y0}`;
      expect(`${b.x1 - a.x1},${b.y1 - a.y1}`).toBe(off);
      expect(offsets.get(a.frame) ?? off, `frame ${a.frame}`).toBe(off);
      offsets.set(a.frame, off);
    }
    const seen = new Set(offsets.values());
    expect(seen.size).toBeGreaterThanOrEqual(4);
    for (const o of seen) for (const v of o.split(',').map(Number)) expect(Math.abs(v)).toBeLessThanOrEqual(5);
    // The picture moved too: nearer the still frame moved by that offset than the still frame as it is.
    let nearer = 0;
    let moved = 0;
    for (const [t, o] of offsets) {
      const [ox, oy] = o.split(',').map(Number);
      if (ox === 0 && oy === 0) continue;
      moved++;
      let [apart, shifted] = [0, 0];
      for (let y = 10; y < H - 10; y++) {
        for (let x = 10; x < W - 10; x++) {
          const v = shaking.frames[t][y * W + x];
          apart += Math.abs(v - still.frames[t][y * W + x]);
          shifted += Math.abs(v - still.frames[t][(y - oy) * W + (x - ox)]);
        }
      }
      // Always nearer; by much where the offset is near a whole pixel (the picture moves by fractions of one).
      expect(shifted, `frame ${t}`).toBeLessThan(apart);
      if (shifted < 0.6 * apart) nearer++;
    }
    expect(moved).toBeGreaterThan(10);
    expect(nearer).toBeGreaterThan(0.6 * moved);
  });
});

describe('surveillanceScene with objects in view at the start', () => {
  const options = { width: 320, height: 240, frames: 60, objects: 8, pillars: 1, shadows: false, stopAndGo: 0.5, noise: 0 };
  const firstFrame = (s: ReturnType<typeof surveillanceScene>) => s.truth.filter((t) => t.frame === 0 && t.visible > 0);

  it('leaves a clip as it was with inView 0, and walks every object in from outside', () => {
    const a = surveillanceScene(6, options);
    const b = surveillanceScene(6, { ...options, inView: 0 });
    expect(firstDifferentFrame(b.frames, a.frames)).toBe(-1);
    expect(b.truth).toEqual(a.truth);
    // Every object's first box touches the frame's edge or lies outside it (it walks in).
    const first = new Map<number, (typeof a.truth)[number]>();
    for (const t of a.truth) if (!first.has(t.id)) first.set(t.id, t);
    for (const t of first.values()) expect(t.x0 <= 0 || t.x1 >= options.width - 1 || t.visible < 1, `object ${t.id}`).toBe(true);
  });

  for (const geometry of [{}, { perspective: 0.5, upDown: 0.5 }]) {
    it(`puts objects wholly in view in the first frame with inView 1, the same objects, some standing (${geometry.perspective ? 'street' : 'flat'})`, () => {
      let [standing, shown] = [0, 0];
      for (const seed of [7, 8, 9, 10]) {
        const a = surveillanceScene(seed, { ...options, ...geometry });
        const b = surveillanceScene(seed, { ...options, ...geometry, inView: 1 });
        expect(firstFrame(a).filter((t) => t.visible === 1).length).toBeLessThan(2);
        const inView = firstFrame(b).filter((t) => t.visible >= 0.75);
        expect(inView.length).toBeGreaterThanOrEqual(options.objects / 2);
        // Standing: the same box in frames 0 and 5 (a stop at the start).
        const at = (f: number, id: number) => b.truth.find((t) => t.frame === f && t.id === id);
        standing += inView.filter((t) => (['x0', 'y0', 'x1', 'y1'] as const).every((k) => at(5, t.id)?.[k] === t[k])).length;
        shown += inView.length;
        // Every box a finite number throughout (a street walker's path reaches back before the clip).
        expect(b.truth.every((t) => [t.x0, t.y0, t.x1, t.y1].every(Number.isFinite))).toBe(true);
        expect(new Set(b.truth.map((t) => t.id))).toEqual(new Set(a.truth.map((t) => t.id)));
      }
      expect(standing).toBeGreaterThan(0);
      expect(standing).toBeLessThan(shown / 2);
    });
  }
});
