/**
 * A frame on the GPU: a fixed-shape record that travels down an operator chain. Operators record their passes into
 * `encoder` and return a new frame with the buffers they produced; the sink submits the encoder once and reads back
 * the compact results named in `reads`. The buffers a frame's passes write belong to the frame (its `lease` holds
 * them) until the sink releases it, after the frame's last submission has completed; see FrameLease.ts.
 */
import type { GpuContext } from './GpuContext.js';
import type { ProfileScope } from './Profiler.js';
import type { FrameLease } from './FrameLease.js';
import { InvalidFrameError } from './errors.js';

/** A compact result a node wants read back: `size` bytes of `buffer` at `offset`, decoded into `results[key]`. */
export interface ReadRequest {
  readonly key: string;
  readonly buffer: GPUBuffer;
  readonly offset: number;
  readonly size: number;
  /** Turns the bytes read into the result's value: a copy of the range, the decoder's to keep (unless `inPlace`). */
  decode(bytes: ArrayBuffer): unknown;
  /**
   * The decoder reads the mapped staging range itself, valid only during the call, and copies what it keeps: no
   * copy of the range per frame (for large results decoded into new arrays, such as features).
   */
  readonly inPlace?: boolean;
}

/** Per-frame state of the labeling node, for nodes that come after it. */
export interface LabelingState {
  readonly connectivity: 4 | 8;
  readonly algorithm: string;
  /** Labels are canonical (0 background, 1..N in raster order of first pixel). */
  readonly canonical: boolean;
  /** u32[8] the labeling writes (decoded as `LabelInfo`); the component count at index 6 when canonical. */
  readonly info: GPUBuffer;
}

/** The marker candidates gathered for a frame across threshold windows (nodes/markers/, shaders/common/markerList.wgsl). */
export interface MarkerCandidateList {
  /** Header (candidates asked for, point cursor, overflow bits) and one record per candidate. */
  readonly list: GPUBuffer;
  /** Each candidate's boundary pixels, packed x | y << 16. */
  readonly points: GPUBuffer;
}

export interface GpuFrame {
  /** Increases by one for each frame a source emits. */
  readonly seq: number;
  /** Capture or presentation time in microseconds. */
  readonly timeUs: number;
  readonly width: number;
  readonly height: number;
  readonly ctx: GpuContext;
  readonly encoder: GPUCommandEncoder;
  /** Packed RGBA8, one u32 per pixel (R in the low byte). */
  readonly rgba: GPUBuffer | null;
  /** 8-bit gray, four pixels per u32 word, raster order. */
  readonly gray: GPUBuffer | null;
  /** Binary image, 8 bits per pixel (0 or 255), four pixels per u32 word. */
  readonly mask: GPUBuffer | null;
  /** `background()`'s shadow pixels (darker copies of the background), laid out as `mask`. */
  readonly shadow: GPUBuffer | null;
  /** u32 per pixel: component labels (canonical when `labeling.canonical`). */
  readonly labels: GPUBuffer | null;
  readonly labeling: LabelingState | null;
  readonly markerCandidates: MarkerCandidateList | null;
  readonly reads: readonly ReadRequest[];
  readonly profile: ProfileScope | null;
  readonly lease: FrameLease;
}

/**
 * Throws an `InvalidFrameError` unless `value` is a frame on the GPU (from a source or an operator): what an operator
 * placed after `readResults()` would get otherwise, a `FrameResult`, in code that TypeScript does not check.
 */
export function expectGpuFrame(value: unknown, who: string): asserts value is GpuFrame {
  const f = value as Partial<GpuFrame> | null;
  if (f && typeof f === 'object' && f.ctx && f.encoder && typeof f.lease?.release === 'function') return;
  const what = f && typeof f === 'object' && 'timings' in f ? 'a FrameResult (readResults() gives those: put it last)' : String(value === null ? null : typeof value);
  throw new InvalidFrameError(`${who}: expected a frame on the GPU (from a source or an operator), got ${what}`);
}

export type FramePatch = Partial<Omit<GpuFrame, 'seq' | 'timeUs' | 'width' | 'height' | 'ctx' | 'lease' | 'profile'>>;

/**
 * Builds a frame with its fields always in the same order (one hidden class for every frame). Sources build
 * frames with `leasedFrame` (frameSource.ts), which makes the lease; operators derive theirs with `withFrame`.
 */
export function makeFrame(base: Omit<GpuFrame, keyof FramePatch> & FramePatch): GpuFrame {
  return {
    seq: base.seq,
    timeUs: base.timeUs,
    width: base.width,
    height: base.height,
    ctx: base.ctx,
    encoder: base.encoder!,
    rgba: base.rgba ?? null,
    gray: base.gray ?? null,
    mask: base.mask ?? null,
    shadow: base.shadow ?? null,
    labels: base.labels ?? null,
    labeling: base.labeling ?? null,
    markerCandidates: base.markerCandidates ?? null,
    reads: base.reads ?? [],
    profile: base.profile,
    lease: base.lease,
  };
}

/** The same frame with some fields replaced. */
export function withFrame(frame: GpuFrame, patch: FramePatch): GpuFrame {
  return makeFrame({ ...frame, ...patch });
}

/** Appends a read request to a frame. */
export function withRead(frame: GpuFrame, read: ReadRequest, patch: FramePatch = {}): GpuFrame {
  return withFrame(frame, { ...patch, reads: [...frame.reads, read] });
}
