/**
 * Seeded fixed-camera clips with known object boxes and ids, for the tracking tests and evaluation: a textured
 * scene, objects (textured boxes, lighter or darker than the scene) walking straight across it, some stopping and
 * going on, some crossing each other, pillars in front of them, cast shadows, sensor noise, and light that ramps
 * and steps. With `perspective` and `upDown` the camera looks down a street: objects are smaller and slower the
 * higher in the frame they are, and some walk up or down it (away from the camera or toward it), growing or
 * shrinking as they go. Gray frames, and with `color` RGB frames too (the same scene tinted, each object a color of its own,
 * shadows the scene's color darkened); the truth gives, per frame, each object's box (inclusive pixel bounds,
 * clipped to the frame) and the fraction of it that is visible (not behind a pillar).
 */
import { rng } from './images.js';

export interface SurveillanceOptions {
  width: number;
  height: number;
  frames: number;
  /** Objects that cross the scene over the clip. */
  objects: number;
  /** Object height range in pixels (widths are 0.35–0.6 of it: people-like). */
  size: [number, number];
  /** Speed range, pixels per frame. */
  speed: [number, number];
  pillars: number;
  shadows: boolean;
  /** Light gain change per frame (a ramp), and a step: [frame, gain factor] or null. */
  ramp: number;
  step: [number, number] | null;
  /** Sensor noise, gray levels (standard deviation). */
  noise: number;
  /** Fraction of objects that stop once for a while. */
  stopAndGo: number;
  /** Fraction of objects darker than the scene (gray 20–60; the others 190–240). */
  darkShare: number;
  /**
   * Size and speed at the top of the frame as a share less than at its bottom (0: the same everywhere; 0.5: half as
   * large and as fast at the top), by where an object's feet (its box's bottom) are.
   */
  perspective: number;
  /** Share of objects that walk up or down the frame rather than across it. */
  upDown: number;
  /**
   * Scene frames a rendered frame moves on (1: each frame is one; 0.5: a camera at twice the rate, rendering `frames`
   * frames over half as many of the scene's). Speeds, stops, the light's ramp and step and the clip's length over which
   * objects set out are in the scene's frames, so that the same scene is seen at another rate; 1 leaves every clip as
   * it was.
   */
  timeStep: number;
  /**
   * How much a walker's pace and way vary (0: each walks straight at one speed): its speed swings by up to this share
   * of it, and its way bends across by up to half of it, each over a period of 2–6 s of its own. Drawn from a random
   * sequence of its own: 0 leaves every clip as it was.
   */
  wander: number;
  /**
   * Walkers drawn as people rather than boxes: a head half as wide (the top seventh, a skin-like gray 150–210), a body
   * of the walker's level, and legs (the lower two fifths) of a level of their own (dark or light as the bodies are),
   * the gap between them a wedge from the hips that opens and closes with its steps. The truth box is the whole
   * figure's. Drawn from a random sequence of its own: false leaves every clip as it was.
   */
  bodies: boolean;
  /**
   * Vehicles rather than walkers: boxes 1.8–2.6 times as wide as tall (1–1.3 when they drive up or down a street
   * scene, seen from the front), 0.55 of the drawn size tall, 1.6 times as fast; their windows a band across the upper
   * half (darker bodies get lighter windows), their wheels dark at the bottom. The same draws from the seed as the
   * walkers': they set out at the same frames from the same sides, only shaped and paced as vehicles. Not with
   * `bodies`.
   */
  vehicles: boolean;
  /**
   * RGB frames as well (`rgb`; `frames` then holds their Rec. 601 luma). The gray clip of a seed is unchanged by
   * it: colors are drawn from a random sequence of their own.
   */
  color: boolean;
  /**
   * Patches of foliage swaying in the wind (0: none): this many discs of 18–40 px radius where the background is
   * leaves over a lighter ground, their pattern swaying back and forth across the patch by 2–6 px, each over a period
   * of 1–3 s of its own with gusts: a pixel there shows leaf or gap by turns, the background a model of one Gaussian a
   * pixel cannot hold (MOG2's mixture can). Drawn from a random sequence of their own: 0 leaves every clip as it was.
   */
  sway: number;
  /**
   * A camera shaking on its pole (0: still): the whole picture moved each frame by up to about this many pixels on
   * each axis (sub-pixel, bilinear), a swing over 0.5–2 s plus a smoothed random walk; the truth's boxes move with it
   * (rounded). Every pixel where the scene has an edge or texture changes, for a background model of a still camera.
   * Drawn from a random sequence of its own: 0 leaves every clip as it was.
   */
  shake: number;
  /**
   * Share of the objects already in view in the first frame (0: none; every object walks in from outside): part way
   * along their way, or, for those that stop and go, half of them standing at their stop, as when a camera is started
   * with people in front of it. A background model knows nothing but the first frame, so what stood there and leaves
   * shows as a ghost until the model learns the ground it reveals. Drawn from a random sequence of its own: 0 leaves
   * every clip as it was.
   */
  inView: number;
}

export const defaultSurveillanceOptions: SurveillanceOptions = {
  width: 320,
  height: 240,
  frames: 300,
  objects: 12,
  size: [40, 70],
  speed: [1, 3],
  pillars: 2,
  shadows: true,
  ramp: 0,
  step: null,
  noise: 4,
  stopAndGo: 0.25,
  darkShare: 0.5,
  perspective: 0,
  upDown: 0,
  timeStep: 1,
  wander: 0,
  sway: 0,
  shake: 0,
  inView: 0,
  bodies: false,
  vehicles: false,
  color: false,
};

export interface TruthBox {
  /** 0-based frame. */
  frame: number;
  id: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Fraction of the object inside the frame and not hidden by pillars (its width's, times its height's inside). */
  visible: number;
}

export interface SurveillanceScene {
  width: number;
  height: number;
  frames: Uint8Array[];
  /** With `color`: R, G, B interleaved, a frame each; else empty. */
  rgb: Uint8Array[];
  truth: TruthBox[];
  /** The pillars' x ranges [x0, x1). */
  pillars: [number, number][];
}

interface Walker {
  id: number;
  start: number;
  x: number;
  y: number;
  vx: number;
  vy: number;
  w: number;
  h: number;
  level: number;
  /** Channel factors (mean 1) of its color. */
  tint: [number, number, number];
  stopAt: number;
  stopFor: number;
  /**
   * With perspective or objects walking up or down: its feet's x, y and its scale at each step (3 numbers a step),
   * from where it comes in; null for the flat scene, where x, y, vx, vy give its box's corner.
   */
  path: Float64Array | null;
  /** Its pace's and way's swings (SurveillanceOptions.wander): periods in the scene's frames, and phases. */
  pacePeriod: number;
  pacePhase: number;
  bendPeriod: number;
  bendPhase: number;
  /** SurveillanceOptions.bodies: its legs' and head's gray levels, and where in its stride it starts. */
  legLevel: number;
  headLevel: number;
  stride: number;
}

export function surveillanceScene(seed: number, options: Partial<SurveillanceOptions> = {}): SurveillanceScene {
  const o = { ...defaultSurveillanceOptions, ...options };
  const { width: W, height: H } = o;
  if (!(o.timeStep > 0 && o.timeStep <= 1)) throw new RangeError(`surveillanceScene: timeStep must be in (0, 1], got ${o.timeStep}`);
  // A pace that swings by its whole speed or more stands still or walks backward.
  if (!(o.wander >= 0 && o.wander < 1)) throw new RangeError(`surveillanceScene: wander must be in [0, 1), got ${o.wander}`);
  if (o.vehicles && o.bodies) throw new RangeError('surveillanceScene: vehicles and bodies: give one');
  /** The scene's length in its own frames (walkers set out within it; the street's paths are laid out over it). */
  const sceneFrames = Math.ceil(o.frames * o.timeStep);
  const r = rng(seed);
  const gauss = () => (r() + r() + r() + r() - 2) * 1.732;
  // Colors from a sequence of their own, so that the gray clip of a seed stays as it was.
  const c = rng(seed + 0x9e3779b9);
  const gaussC = () => (c() + c() + c() + c() - 2) * 1.732;
  // Pace, bends and bodies from a sequence of their own too (wander, bodies).
  const v = rng(seed + 0x632be5ab);
  /** Channel factors with mean 1 for a hue (0..1) and a saturation: a color of about the same brightness. */
  const tintOf = (hue: number, sat: number): [number, number, number] => {
    const a = 2 * Math.PI * hue;
    return [1 + sat * Math.cos(a), 1 + sat * Math.cos(a - (2 * Math.PI) / 3), 1 + sat * Math.cos(a + (2 * Math.PI) / 3)];
  };
  // The scene: smooth shapes plus fine texture, mid-gray.
  const blobs = Array.from({ length: 12 }, () => [r() * W, r() * H, 10 + r() * 60, (r() - 0.5) * 50]);
  const scene = new Float32Array(W * H);
  // In color: the ground a tint of its own, each shape of the scene another (paint, grass, tiles).
  const sceneTint = new Float32Array(o.color ? 3 * W * H : 0);
  const groundTint = tintOf(c(), 0.1 + 0.2 * c());
  const blobTints = blobs.map(() => tintOf(c(), 0.1 + 0.4 * c()));
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let v = 110 + 20 * Math.sin(x / 13 + y / 29) + 10 * Math.sin(y / 5);
      let tint = groundTint;
      blobs.forEach(([bx, by, br, bv], i) => {
        if ((x - bx) ** 2 + (y - by) ** 2 < br * br) {
          v += bv;
          tint = blobTints[i];
        }
      });
      scene[y * W + x] = v + 8 * (r() - 0.5);
      if (o.color) sceneTint.set(tint, 3 * (y * W + x));
    }
  }
  // Foliage (sway): patches from a sequence of their own; per patch its disc, the sway's amplitude, period and phase,
  // and its gusts' period and phase.
  const fo = rng(seed + 0x51ed270b);
  const patches = Array.from({ length: o.sway }, () => ({
    x: fo() * W,
    y: fo() * H,
    r: 18 + fo() * 22,
    amp: 2 + fo() * 4,
    period: 30 + fo() * 60,
    phase: 2 * Math.PI * fo(),
    gust: 50 + fo() * 100,
    gustPhase: 2 * Math.PI * fo(),
  }));
  /** The leaves' pattern at (x, y) shifted by d px: 1 leaf, 0 gap (blobs of 4–8 px). */
  const leaf = (x: number, y: number, d: number) => (Math.sin((x + d) / 2.3 + Math.sin(y / 3.1) * 2) + Math.sin((y + 0.5 * d) / 1.9 + x / 5.3) > 0.3 ? 1 : 0);
  // Shake: each frame's offset, from a sequence of its own: a swing plus a random walk pulled back to the middle.
  const sh = rng(seed + 0x2545f491);
  const shakeAt: [number, number][] = [];
  if (o.shake > 0) {
    const [px, py, fx, fy] = [15 + sh() * 45, 15 + sh() * 45, 2 * Math.PI * sh(), 2 * Math.PI * sh()];
    let [wx, wy] = [0, 0];
    for (let t = 0; t < o.frames; t++) {
      const time = t * o.timeStep;
      wx = 0.8 * wx + 0.5 * (sh() - 0.5);
      wy = 0.8 * wy + 0.5 * (sh() - 0.5);
      shakeAt.push([o.shake * (0.7 * Math.sin((2 * Math.PI * time) / px + fx) + wx), o.shake * (0.7 * Math.sin((2 * Math.PI * time) / py + fy) + wy)]);
    }
  }
  const pillars: [number, number][] = Array.from({ length: o.pillars }, (_, i) => {
    const cx = ((i + 0.5) / o.pillars) * W + (r() - 0.5) * W * 0.2;
    const w = 10 + r() * 14;
    return [Math.round(cx - w / 2), Math.round(cx + w / 2)];
  });
  const street = o.perspective > 0 || o.upDown > 0;
  /** Scale at feet height y: 1 at the frame's bottom, 1 − perspective at its top. */
  const scaleAt = (y: number) => 1 - o.perspective * (1 - Math.max(0, Math.min(1, y / H)));
  const walkers: Walker[] = Array.from({ length: o.objects }, (_, i) => {
    const walkerH = o.size[0] + r() * (o.size[1] - o.size[0]);
    const shape = r();
    const walkerW = walkerH * (0.35 + shape * 0.25);
    const walkerSpeed = o.speed[0] + r() * (o.speed[1] - o.speed[0]);
    // Vehicles: lower and longer than walkers, and faster; they set out when the walkers would.
    const h = o.vehicles ? 0.55 * walkerH : walkerH;
    const w = o.vehicles ? h * (1.8 + shape * 0.8) : walkerW;
    const speed = o.vehicles ? 1.6 * walkerSpeed : walkerSpeed;
    const fromLeft = r() < 0.5;
    const y = r() * (H - h);
    const vy = (r() - 0.5) * speed * 0.4;
    const vx = (fromLeft ? 1 : -1) * speed;
    const walker: Walker = {
      id: i + 1,
      start: Math.floor(r() * Math.max(1, sceneFrames - (W + walkerW) / walkerSpeed)),
      x: fromLeft ? -w : W,
      y,
      vx,
      vy,
      w,
      h,
      level: r() < o.darkShare ? 20 + r() * 40 : 190 + r() * 50,
      // Clothes and cars: any hue, from nearly gray to strong.
      tint: tintOf(c(), 0.1 + 0.6 * c()),
      stopAt: r() < o.stopAndGo ? Math.floor(((W / 2 + (r() - 0.5) * W * 0.4) / speed)) : -1,
      stopFor: 20 + Math.floor(r() * 40),
      path: null,
      pacePeriod: 60 + 120 * v(),
      pacePhase: 2 * Math.PI * v(),
      bendPeriod: 60 + 120 * v(),
      bendPhase: 2 * Math.PI * v(),
      legLevel: v() < o.darkShare ? 20 + v() * 40 : 190 + v() * 50,
      headLevel: 150 + 60 * v(),
      stride: v(),
    };
    if (street) walker.path = streetPath(walker, fromLeft);
    return walker;
  });
  // In view at the start (inView): a start before the clip's, from a sequence of its own, so that the walker is part
  // way along its way at frame 0 (a fifth to four fifths of its crossing), or standing at its stop.
  const iv = rng(seed + 0x7f4a7c15);
  for (const k of walkers) {
    if (!(iv() < o.inView)) continue;
    const speed = Math.hypot(k.vx, k.vy);
    const crossing = (k.path && Math.abs(k.path[4] - k.path[1]) > Math.abs(k.path[3] - k.path[0]) ? H + k.h : W + k.w) / speed;
    const standing = k.stopAt >= 0 && iv() < 0.5;
    const lead = standing ? k.stopAt + Math.floor(iv() * k.stopFor) : Math.floor((0.2 + 0.6 * iv()) * crossing);
    k.start = -Math.min(sceneFrames, lead);
  }
  /**
   * The path of a walker in the street scene: across the frame at the height its box's corner was drawn at, or (a
   * share upDown of them) up or down it from a point drawn across, its feet moving at its speed times the scale
   * where they are. Its stop, drawn as a distance across, is taken as the same share of the way up or down.
   */
  function streetPath(k: Walker, fromLeftOrTop: boolean): Float64Array {
    const upDown = r() < o.upDown;
    const across = r();
    let fx: number;
    let fy: number;
    let vx = k.vx;
    let vy = k.vy;
    if (upDown) {
      // A vehicle driving up or down the street is seen from its front or back: about as wide as tall.
      if (o.vehicles) k.w = k.h * (1 + (0.3 * (k.w / k.h - 1.8)) / 0.8);
      const speed = Math.abs(k.vx);
      [vx, vy] = [k.vy, fromLeftOrTop ? speed : -speed];
      fx = k.w / 2 + across * (W - k.w);
      fy = fromLeftOrTop ? 0 : H + k.h;
      if (k.stopAt >= 0) k.stopAt = Math.round((k.stopAt * H) / W);
    } else {
      fx = fromLeftOrTop ? -k.w / 2 : W + k.w / 2;
      fy = k.y + k.h;
    }
    // One step past the scene's end, so that a rendered frame between its last two steps has both (a walker in view
    // at the start began up to sceneFrames before the clip: twice as many steps then).
    const steps = o.inView > 0 ? 2 * sceneFrames : sceneFrames;
    const path = new Float64Array(3 * (steps + 1));
    for (let s = 0; s <= steps; s++) {
      const sc = scaleAt(fy);
      path[3 * s] = fx;
      path[3 * s + 1] = fy;
      path[3 * s + 2] = sc;
      // With wander: the pace swings, and the way bends across it (wander).
      const pace = 1 + o.wander * Math.sin((2 * Math.PI * s) / k.pacePeriod + k.pacePhase);
      const bend = 0.5 * o.wander * Math.sin((2 * Math.PI * s) / k.bendPeriod + k.bendPhase);
      fx += (vx * pace - vy * bend) * sc;
      fy += (vy * pace + vx * bend) * sc;
      // Walkers across stay in the frame from head to feet; walkers up or down stay in it side to side.
      if (!upDown) fy = Math.max(k.h * scaleAt(fy), Math.min(H, fy));
      else fx = Math.max((k.w * sc) / 2, Math.min(W - (k.w * sc) / 2, fx));
    }
    return path;
  }
  /**
   * The integral from 0 to s of sin(2π u / period + phase): how far a swing of unit amplitude has carried a walker by
   * scene frame s.
   */
  function swing(period: number, phase: number, s: number): number {
    return (period / (2 * Math.PI)) * (Math.cos(phase) - Math.cos((2 * Math.PI * s) / period + phase));
  }
  /** Scene frames walker k has walked by rendered frame t (its stop left out); negative before it starts. */
  const walkTime = (k: Walker, t: number): number => {
    const s = t * o.timeStep - k.start;
    return k.stopAt >= 0 && s > k.stopAt ? Math.max(k.stopAt, s - k.stopFor) : s;
  };
  /** Walker position at rendered frame t (null before it starts): at the scene's time t · timeStep. */
  const at = (k: Walker, t: number): [number, number] | null => {
    const s = walkTime(k, t);
    if (s < 0) return null;
    if (k.path) {
      // Between two of the path's steps, on the straight line joining them.
      const i = Math.floor(s);
      const f = s - i;
      if (f === 0) return [k.path[3 * i], k.path[3 * i + 1]];
      return [k.path[3 * i] + f * (k.path[3 * i + 3] - k.path[3 * i]), k.path[3 * i + 1] + f * (k.path[3 * i + 4] - k.path[3 * i + 1])];
    }
    if (o.wander === 0) return [k.x + k.vx * s, Math.max(0, Math.min(H - k.h, k.y + k.vy * s))];
    // The pace's swing integrated (the way walked by scene frame s), and the bend across as a swing of its own.
    const speed = Math.abs(k.vx);
    const walked = s + o.wander * swing(k.pacePeriod, k.pacePhase, s);
    const bent = 0.5 * o.wander * speed * swing(k.bendPeriod, k.bendPhase, s);
    return [k.x + k.vx * walked, Math.max(0, Math.min(H - k.h, k.y + k.vy * walked + bent))];
  };
  /** A walker's box at frame t (inclusive, unclipped) and its height, or null before it starts. */
  const boxAt = (k: Walker, t: number): [number, number, number, number, number] | null => {
    const p = at(k, t);
    if (!p) return null;
    if (!k.path) {
      const [x0, y0] = [Math.round(p[0]), Math.round(p[1])];
      return [x0, y0, x0 + Math.round(k.w) - 1, y0 + Math.round(k.h) - 1, k.h];
    }
    const sc = scaleAt(p[1]);
    const [w, h] = [Math.max(2, Math.round(k.w * sc)), Math.max(2, Math.round(k.h * sc))];
    const x0 = Math.round(p[0] - w / 2);
    const y1 = Math.round(p[1]) - 1;
    return [x0, y1 - h + 1, x0 + w - 1, y1, h];
  };
  const frames: Uint8Array[] = [];
  const rgb: Uint8Array[] = [];
  const truth: TruthBox[] = [];
  const pillarTint = tintOf(c(), 0.05 + 0.1 * c());
  const behind = (x: number) => pillars.some(([a, b]) => x >= a && x < b);
  /** A pillar's level at column x. */
  const pillarLevel = (x: number) => 150 + 10 * Math.sin(x * 0.9);
  for (let t = 0; t < o.frames; t++) {
    const time = t * o.timeStep;
    let gain = 1 + o.ramp * time;
    if (o.step && time >= o.step[0]) gain *= o.step[1];
    const img = Float32Array.from(scene);
    const tints = Float32Array.from(sceneTint);
    const truthFrom = truth.length;
    for (const q of patches) {
      // The sway at this time: a swing, stronger in gusts.
      const d = q.amp * Math.sin((2 * Math.PI * time) / q.period + q.phase) * (0.6 + 0.4 * Math.sin((2 * Math.PI * time) / q.gust + q.gustPhase));
      for (let y = Math.max(0, Math.floor(q.y - q.r)); y <= Math.min(H - 1, Math.ceil(q.y + q.r)); y++) {
        for (let x = Math.max(0, Math.floor(q.x - q.r)); x <= Math.min(W - 1, Math.ceil(q.x + q.r)); x++) {
          if ((x - q.x) ** 2 + (y - q.y) ** 2 >= q.r * q.r) continue;
          // Leaves darker than the scene, the gaps between them lighter.
          img[y * W + x] = scene[y * W + x] + (leaf(x, y, d) ? -35 : 30);
        }
      }
    }
    // In the street scene the nearer object (feet lower in the frame) is drawn over the farther one.
    const drawn = street ? walkers.filter((k) => at(k, t)).sort((p, q) => at(p, t)![1] - at(q, t)![1]) : walkers;
    for (const k of drawn) {
      const b = boxAt(k, t);
      if (!b) continue;
      const [x0, y0, x1, y1, kh] = b;
      if (x1 < 0 || x0 >= W || y1 < 0 || y0 >= H) continue;
      if (o.shadows) {
        // A shadow on the ground to the right of the feet: the scene darkened.
        for (let y = y1 + 1; y <= Math.min(H - 1, y1 + Math.round(kh * 0.15)); y++) {
          const shift = Math.round((y - y1) * 1.5);
          for (let x = Math.max(0, x0 + shift); x <= Math.min(W - 1, x1 + shift + 4); x++) img[y * W + x] = scene[y * W + x] * 0.6;
        }
      }
      // With bodies, from the centre column: the head's half-width, and half the legs' gap at the feet. The gap is a
      // wedge from the hips down, shut for a fifth of a step (the feet passing) and two fifths of the width at its
      // widest.
      const bw = x1 - x0 + 1;
      const mid = (x0 + x1) / 2;
      const headHalf = bw / 4;
      const step = o.bodies ? Math.abs(Math.sin(Math.PI * (k.stride + (Math.abs(k.vx) * walkTime(k, t)) / (0.6 * kh)))) : 0;
      const gapHalf = 0.2 * bw * Math.max(0, 1.5 * step - 0.5);
      for (let y = Math.max(0, y0); y <= Math.min(H - 1, y1); y++) {
        const down = (y - y0) / kh;
        for (let x = Math.max(0, x0); x <= Math.min(W - 1, x1); x++) {
          // A body: its level, shaded top to bottom, with a little texture of its own.
          let level = k.level;
          if (o.vehicles) {
            // Windows across the upper half (inset from both ends), wheels dark along the bottom.
            const along = (x - x0) / bw;
            if (down >= 0.12 && down < 0.45 && along > 0.15 && along < 0.85) level = level < 128 ? level + 90 : level - 110;
            else if (down >= 0.88 && (Math.abs(along - 0.22) < 0.1 || Math.abs(along - 0.78) < 0.1)) level = 25;
          } else if (o.bodies) {
            const off = Math.abs(x - mid);
            if (down < 1 / 7) {
              if (off > headHalf) continue;
              level = k.headLevel;
            } else if (down >= 0.6) {
              if (off < (gapHalf * (down - 0.6)) / 0.4) continue;
              level = k.legLevel;
            }
          }
          img[y * W + x] = level + 15 * (down - 0.5) + 6 * Math.sin((x - x0) * 1.3 + (y - y0) * 0.7);
          if (o.color) tints.set(k.tint, 3 * (y * W + x));
        }
      }
      const cx0 = Math.max(0, x0);
      const cx1 = Math.min(W - 1, x1);
      let shown = 0;
      for (let x = cx0; x <= cx1; x++) if (!behind(x)) shown++;
      // Walkers up or down come in and go out through the frame's top and bottom: the rows inside count too.
      const rows = (Math.min(H - 1, y1) - Math.max(0, y0) + 1) / (y1 - y0 + 1);
      truth.push({ frame: t, id: k.id, x0: cx0, y0: Math.max(0, y0), x1: cx1, y1: Math.min(H - 1, y1), visible: (shown / (x1 - x0 + 1)) * rows });
    }
    const f = new Uint8Array(W * H);
    const color = new Uint8Array(o.color ? 3 * W * H : 0);
    // A shaking camera: the picture (pillars included) moved by this frame's offset, and the truth's boxes with it.
    const [dx, dy] = o.shake > 0 ? shakeAt[t] : [0, 0];
    const moved = o.shake > 0 ? shiftPicture(img, W, H, dx, dy, (x) => (behind(x) ? pillarLevel(x) : null)) : null;
    if (o.shake > 0) {
      const [ox, oy] = [Math.round(dx), Math.round(dy)];
      for (let i = truthFrom; i < truth.length; i++) {
        const b = truth[i];
        [b.x0, b.y0, b.x1, b.y1] = [Math.max(0, b.x0 + ox), Math.max(0, b.y0 + oy), Math.min(W - 1, b.x1 + ox), Math.min(H - 1, b.y1 + oy)];
      }
    }
    for (let p = 0; p < W * H; p++) {
      // The pixel the shake brought here (nearest), for its tint.
      const sx = moved ? Math.min(W - 1, Math.max(0, Math.round((p % W) - dx))) : p % W;
      const sp = moved ? Math.min(H - 1, Math.max(0, Math.round(Math.floor(p / W) - dy))) * W + sx : p;
      const pillar = behind(sx);
      const v = moved ? moved[p] : pillar ? pillarLevel(p % W) : img[p];
      if (!o.color) {
        f[p] = Math.max(0, Math.min(255, Math.round(v * gain + gauss() * o.noise)));
        continue;
      }
      // Each channel its own sensor noise; the gray frame is the color one's luma, as a decoder's Y.
      const tint = pillar ? pillarTint : tints.subarray(3 * sp, 3 * sp + 3);
      for (let ch = 0; ch < 3; ch++) color[3 * p + ch] = Math.max(0, Math.min(255, Math.round(v * tint[ch] * gain + gaussC() * o.noise)));
      f[p] = Math.round(0.299 * color[3 * p] + 0.587 * color[3 * p + 1] + 0.114 * color[3 * p + 2]);
    }
    frames.push(f);
    if (o.color) rgb.push(color);
  }
  return { width: W, height: H, frames, rgb, truth, pillars };
}

/**
 * The picture (the scene's levels `img`, with `fixed(x)` over it where something stands in front: a pillar's level, or
 * null) seen through a camera moved by (dx, dy): each pixel sampled bilinearly at (x − dx, y − dy), the border's
 * pixels repeated beyond it.
 */
function shiftPicture(img: Float32Array, W: number, H: number, dx: number, dy: number, fixed: (x: number) => number | null): Float32Array {
  const at = (x: number, y: number) => {
    const [cx, cy] = [Math.min(W - 1, Math.max(0, x)), Math.min(H - 1, Math.max(0, y))];
    return fixed(cx) ?? img[cy * W + cx];
  };
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    const sy = y - dy;
    const y0 = Math.floor(sy);
    const fy = sy - y0;
    for (let x = 0; x < W; x++) {
      const sx = x - dx;
      const x0 = Math.floor(sx);
      const fx = sx - x0;
      const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
      const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
      out[y * W + x] = top * (1 - fy) + bottom * fy;
    }
  }
  return out;
}
