/**
 * Blob tracking over a fixed camera's video: the GPU keeps a background model (MOG2), cleans its foreground and
 * measures the blobs; the CPU tracks them with lasting ids and counts a line down the middle. Runs over
 * examples/data/street.mp4 (or the files given) and prints per second of video the tracks seen and the line's
 * crossings; when a `<clip>.json` of true boxes lies beside the clip (the shipped one has it, written by
 * scripts/make-street-clip.mjs), it scores the tracks against it (MOTA, IDF1, ID switches) and gives the line's true
 * counts beside the tracker's. Run with `npm run main`
 * (after the labeling and markers jobs) or `node dist/examples/node/track.js [clip.mp4 ...]`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, blobTracking, countsAtEnd, defaultBlobSettings, seenTracks, type FrameResult } from 'flowmark';
import * as reference from 'flowmark/reference';
import { fromVideoFile, probeVideoFile, videoFileBackground, videoFileHasColor } from 'flowmark/node';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const files = args.length ? args : [fileURLToPath(new URL('../../../examples/data/street.mp4', import.meta.url))];
  const ctx = await GpuContext.create({ label: 'flowmark-track' });
  console.log(`flowmark tracking on ${ctx.adapterName}${ctx.isFallbackAdapter ? ' (fallback adapter: software)' : ''}`);
  for (const file of files) {
    // The size first: the counting line runs down the middle of the frame.
    const { width, height, codec, frames } = await probeVideoFile(file);
    // Color footage: the foreground found on gray, shadows told from dark objects by their color ('shadows', as
    // flowmark track does); gray footage as gray, a byte a pixel.
    const color = await videoFileHasColor(file);
    console.log(`${file}: ${width}x${height} ${codec}, ${frames} frames, ${color ? 'color' : 'gray'}`);
    const start = performance.now();
    const format = color ? 'rgba' : 'gray';
    // The scene behind what moves: the median of 25 frames over the video's first 30 s. The model starts from it, so
    // what stands in view in the first frame is an object from then on and leaves no ghost where it stood.
    const prime = await videoFileBackground(file, { seconds: 30, format });
    const results: FrameResult[] = await lastValueFrom(
      fromVideoFile(ctx, file, { format }).pipe(
        // The surveillance chain as `flowmark track` runs it, with its measured defaults (docs/operators/blobTracking.md):
        // background model, cleanup, blobs with their gray histograms, then the tracker. Started from the prime, no
        // warmup. Forward: from the line's left to its right, seen going from a to b (here bottom to top).
        blobTracking({ ...defaultBlobSettings, warmup: 0, prime, color: color ? 'shadows' : false, lines: [{ id: 'middle', a: [width / 2, height - 1], b: [width / 2, 0] }], maxUnseen: 2 }),
        toArray(),
      ),
    );
    const wall = (performance.now() - start) / 1000;
    console.log('second  tracks seen  entered  left  crossings forward/backward so far');
    const bySecond = new Map<number, FrameResult[]>();
    for (const r of results) bySecond.set(Math.floor(r.timeUs / 1e6), [...(bySecond.get(Math.floor(r.timeUs / 1e6)) ?? []), r]);
    for (const [s, rs] of bySecond) {
      const seen = new Set(rs.flatMap((r) => r.tracks!.tracks.filter((t) => t.state === 'confirmed').map((t) => t.id)));
      const events = rs.flatMap((r) => r.tracks!.events);
      const c = rs.at(-1)!.tracks!.counts.middle;
      console.log(`${String(s).padStart(6)}  ${String(seen.size).padStart(11)}  ${String(events.filter((e) => e.type === 'entered').length).padStart(7)}  ${String(events.filter((e) => e.type === 'left').length).padStart(4)}  ${c.forward}/${c.backward}`);
    }
    // The clip's end: with the objects over the line by their centre, whose box no later frame shows clear of it.
    const end = countsAtEnd(results.at(-1)!.tracks!).middle;
    console.log(`at the clip's end: ${end.forward} crossed forward, ${end.backward} backward`);
    const truthFile = file.replace(/\.[^.]+$/, '.json');
    if (existsSync(truthFile)) {
      const truth = (JSON.parse(readFileSync(truthFile, 'utf8')).truth as number[][]).map(([frame, id, x0, y0, x1, y1, visible]) => ({ frame, id, x0, y0, x1, y1, ignore: visible < 0.4 }));
      // Tracks as a tracking benchmark reads them: confirmed ones, with their blob's box (or, in a group, their own).
      const hyp = results.flatMap((r) => seenTracks(r).map(({ id, box: [x0, y0, x1, y1] }) => ({ frame: r.seq, id, x0, y0, x1, y1 })));
      const s = reference.motScores(truth, hyp);
      console.log(`against the true boxes: MOTA ${s.mota.toFixed(3)}, IDF1 ${s.idf1.toFixed(3)}, ID switches ${s.idSwitches} (${s.truth} true boxes, ${s.hypotheses} reported)`);
      // The line's true counts, as the evaluation counts them: a true box's centre passing x = width / 2 from one
      // frame to the next (forward left to right, as the line's a → b makes it).
      const want = reference.lineCrossings(truth, width / 2, 'x');
      console.log(`the true boxes' centres crossed the line ${want.forward} forward, ${want.backward} backward (counted: ${end.forward}, ${end.backward})`);
    }
    console.log(`${results.length} frames in ${wall.toFixed(2)} s (${(results.length / wall).toFixed(1)} frames/s), buffers in use after: ${ctx.pool.stats().inUse}`);
  }
  ctx.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
