// A frame owns its buffers until its last submission has completed (src/core/FrameLease.ts, src/core/PerFrame.ts): frames
// of one size and different content, for every algorithm, pass mode, in-flight bound and submission batching,
// each equal to the CPU reference of that frame. An asynchronous step between the labeling and the sink (any user
// operator that waits) lets later frames record and submit while earlier ones are still pending: with buffers
// shared by all frames, a later frame's until-converged batch overwrote an earlier frame's labels.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concatMap, lastValueFrom, map, timer, toArray, type Observable } from 'rxjs';
import { features, fromPixels, labelAlgorithms, readResults, threshold, type GpuContext, type GpuFrame, type PixelImage } from '../../../index.js';
import { labelWith } from '../../../nodes/components/label.js';
import { fromVideoFile } from '../../../node.js';
import { labelCpu } from '../../../src/reference/labelCpu.js';
import { featuresCpu } from '../../../src/reference/featuresCpu.js';
import { randomBlocks, zigzagSpiral } from '../../../src/eval/images.js';
import { firstDiff, gray, testContext } from '../../support/gpu.js';

let ctx: GpuContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx?.destroy());

const W = 41;
const H = 41;
/** Same size, different content; the spiral crosses every tile border, so Shibata's first pass never finishes it. */
const frames: PixelImage[] = [
  gray(W, H, zigzagSpiral(W)),
  ...Array.from({ length: 6 }, (_, i) => gray(W, H, randomBlocks(W, H, 0.3 + 0.1 * (i % 4), 1 + (i % 3), 70 + i))),
  gray(W, H, zigzagSpiral(W).map((v) => 255 - v)),
  gray(W, H, randomBlocks(W, H, 0.55, 2, 99)),
];

/** A user operator that holds every frame for a moment: later frames go ahead meanwhile. */
const wait = (f: GpuFrame): Observable<GpuFrame> => timer(1).pipe(map(() => f));

const cases = labelAlgorithms.flatMap((algorithm) =>
  (algorithm === 'shibata' ? (['until-converged', 64] as const) : (['until-converged'] as const)).map((passes) => ({ algorithm, passes })),
);

describe('frame ownership', () => {
  for (const { algorithm, passes } of cases) {
    it(`${algorithm} (passes ${passes}): every frame equals its own CPU reference, for 1..4 frames in flight and 1 or 4 per submit`, async () => {
      for (const maxInFlight of [1, 2, 3, 4]) {
        for (const framesPerSubmit of [1, 4]) {
          const results = await lastValueFrom(
            fromPixels(ctx, frames, { maxInFlight }).pipe(
              threshold(),
              // Shibata's first batch of one pass: frames need several batches, each its own submission.
              labelWith({ algorithm, passes, readLabels: true }, { split: false, repeat: 1, firstBatch: 1 }),
              concatMap(wait),
              readResults({ framesPerSubmit }),
              toArray(),
            ),
          );
          const at = `maxInFlight ${maxInFlight}, framesPerSubmit ${framesPerSubmit}`;
          expect(results.map((r) => r.seq), at).toEqual(frames.map((_, i) => i));
          results.forEach((r, i) => {
            const ref = labelCpu(frames[i].data, W, H, 8);
            expect(r.labeling!.count, `${at}, frame ${i}`).toBe(ref.count);
            expect(firstDiff(r.labels!, ref.labels), `${at}, frame ${i}: first differing pixel`).toBe(-1);
          });
          // Batches of 1, 2, 4...: more than 1 pass took a second batch, a submission of its own.
          if (algorithm === 'shibata' && passes === 'until-converged') expect(results[0].labeling!.passes).toBeGreaterThan(1);
        }
      }
      expect(ctx.pool.stats().inUse).toBe(0);
    });
  }

  it('features straight from the mask keep each frame its own too', async () => {
    const results = await lastValueFrom(
      fromPixels(ctx, frames, { maxInFlight: 3 }).pipe(threshold(), features({ maxResults: 4096 }), concatMap(wait), readResults({ framesPerSubmit: 4 }), toArray()),
    );
    results.forEach((r, i) => {
      const want = featuresCpu(labelCpu(frames[i].data, W, H, 8).labels, frames[i].data, W, H);
      expect(r.features!.count, `frame ${i}`).toBe(want.count);
      expect(Array.from(r.features!.area), `frame ${i}`).toEqual(Array.from(want.area));
      expect(Array.from(r.features!.x0), `frame ${i}`).toEqual(Array.from(want.x0));
    });
  });

  it('a video of same-size frames (fromVideoFile): each frame its own labels, with until-converged Shibata and features', async () => {
    // The hardening issue's clip: 30 frames of 320×240 gray, a white 40×30 box at x = 10 + 4n, H.264 with B-frames.
    const dir = mkdtempSync(join(tmpdir(), 'flowmark-ownership-'));
    const clip = join(dir, 'box.mp4');
    const n = 30;
    const raw = new Uint8Array(320 * 240 * n);
    for (let f = 0; f < n; f++) for (let y = 100; y < 130; y++) raw.fill(255, f * 320 * 240 + y * 320 + 10 + 4 * f, f * 320 * 240 + y * 320 + 50 + 4 * f);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', '320x240', '-r', '30', '-i', '-', '-c:v', 'libx264', '-bf', '2', '-pix_fmt', 'yuv420p', clip], { input: raw });
    // What fromVideoFile decodes, decoded the same way, as the reference.
    const decoded = execFileSync('ffmpeg', ['-v', 'error', '-i', clip, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { maxBuffer: 1 << 26 });
    for (const [maxInFlight, framesPerSubmit] of [[1, 1], [2, 1], [4, 4]]) {
      const results = await lastValueFrom(
        fromVideoFile(ctx, clip, { maxInFlight }).pipe(
          threshold({ level: 127 }),
          labelWith({ algorithm: 'shibata', passes: 'until-converged', readLabels: true }, { split: false, repeat: 1, firstBatch: 1 }),
          features({}),
          concatMap(wait),
          readResults({ framesPerSubmit }),
          toArray(),
        ),
      );
      expect(results).toHaveLength(n);
      results.forEach((r, f) => {
        const mask = Uint8Array.from(decoded.subarray(f * 320 * 240, (f + 1) * 320 * 240), (v) => (v > 127 ? 255 : 0));
        const ref = labelCpu(mask, 320, 240, 8);
        const at = `maxInFlight ${maxInFlight}, framesPerSubmit ${framesPerSubmit}, frame ${f}`;
        expect(firstDiff(r.labels!, ref.labels), at).toBe(-1);
        expect(r.features!.x0[0], at).toBe(10 + 4 * f);
      });
    }
    expect(ctx.pool.stats().inUse).toBe(0);
  });
});
