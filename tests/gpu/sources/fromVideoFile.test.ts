// Video files in Node (fromVideoFile): clips made by ffmpeg with known content (a white square moving 4 px right and
// 2 px down per frame), decoded to the GPU and checked through the labeling pipeline; timestamps against mp4box's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { clipFrames, codecs, containers, makeClips, padMp4, turnedBoxAt, turnedName, turns } from '../../support/clips.js';
import { fileURLToPath } from 'node:url';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { lastValueFrom, take, toArray } from 'rxjs';
import { DecodeError, InvalidOptionError, features, fromVideo, label, probeVideo, readResults, threshold, type GpuContext } from '../../../index.js';
import { fromVideoFile, probeVideoFile, readVideoFrames } from '../../../node.js';
import { demuxMp4 } from '../../../nodes/sources/probeVideo.js';
import { readMp4Index } from '../../../nodes/sources/readMp4Index.js';
import { readRanges } from '../../../nodes/sources/readInput.js';
import { testContext } from '../../support/gpu.js';
import { ffmpegsOn } from '../../support/processes.js';

let ctx: GpuContext;
let dir: string;
const frames = clipFrames;
const clips = codecs;
const containerNames: Record<string, string> = { 'h264.mkv': 'matroska,webm', 'vp9.webm': 'matroska,webm', 'msmpeg4.avi': 'avi', 'h264.ts': 'mpegts', 'raw.h264': 'h264' };

beforeAll(async () => {
  ctx = await testContext();
  dir = makeClips();
}, 120_000);
afterAll(() => ctx?.destroy());

describe('flowmark label on videos', () => {
  it('writes one JSON line per frame with the components, and reports a bad video while labelling the rest', () => {
    const cli = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
    const out = join(dir, 'cli');
    const r = spawnSync(process.execPath, [cli, 'label', join(dir, 'truncated.mp4'), join(dir, 'vp9.mp4'), '--out-dir', out, '--labels', '--algorithm', 'auto', '--threshold', '128'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/truncated\.mp4: error:/);
    expect(r.stdout).toMatch(/vp9\.mp4: 64x48 vp09\S*, 12 frames/);
    const lines = readFileSync(join(out, 'vp9.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.frame)).toEqual(Array.from({ length: frames }, (_, n) => n));
    expect(lines.map((l) => l.timeUs)).toEqual(Array.from({ length: frames }, (_, n) => n * 100_000));
    lines.forEach((l, n) => {
      expect(l.count).toBe(1);
      expect(Math.abs(l.components[0].cx - (4 + 4 * n + 3.5))).toBeLessThanOrEqual(1);
    });
    const labels = readFileSync(join(out, 'vp9-00003.u32'));
    expect(labels.length).toBe(64 * 48 * 4);
    expect(new Uint32Array(labels.buffer, labels.byteOffset, 64 * 48).filter((v) => v === 1).length).toBe(lines[3].components[0].area);
  });

  it("splits a video's frames at Otsu's level when no rule is chosen (a frame is never a mask), and says so", () => {
    const cli = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
    const out = join(dir, 'cli-default');
    const r = spawnSync(process.execPath, [cli, 'label', join(dir, 'vp9.mp4'), '--out-dir', out], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("12 frames (foreground: Otsu's level per frame, the default for video)");
    const lines = readFileSync(join(out, 'vp9.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // The moving square, not one component of the whole frame (any nonzero gray value).
    lines.forEach((l, n) => {
      expect(l.count, `frame ${n}`).toBe(1);
      expect(Math.abs(l.components[0].cx - (4 + 4 * n + 3.5))).toBeLessThanOrEqual(1);
      expect(l.components[0].area).toBeLessThan(64 * 48 / 4);
    });
  });

  it('takes AVI and Matroska files as videos (and says which codec)', () => {
    const cli = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
    const out = join(dir, 'cli-containers');
    const r = spawnSync(process.execPath, [cli, 'label', join(dir, 'msmpeg4.avi'), join(dir, 'h264.mkv'), '--out-dir', out, '--threshold', '128'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/msmpeg4\.avi: 64x48 msmpeg4v3, 12 frames/);
    for (const stem of ['msmpeg4', 'h264']) {
      const lines = readFileSync(join(out, `${stem}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.map((l) => l.timeUs)).toEqual(Array.from({ length: frames }, (_, n) => n * 100_000));
      lines.forEach((l, n) => expect(Math.abs(l.components[0].cx - (4 + 4 * n + 3.5)), `${stem} frame ${n}`).toBeLessThanOrEqual(1));
    }
  });

  it('writes the lines of a video as its frames complete: a video cut short keeps every decoded frame, then the error', () => {
    const cli = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
    const out = join(dir, 'cli-cut');
    const r = spawnSync(process.execPath, [cli, 'label', join(dir, 'cut.mp4'), '--out-dir', out, '--threshold', '128'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(1);
    const decoded = Number(/decoded (\d+) of 30 frames/.exec(r.stderr)?.[1]);
    expect(decoded).toBeGreaterThan(0);
    expect(r.stderr).toContain(`(${decoded} frames written to ${join(out, 'cut.jsonl')})`);
    // ffmpeg's complaint in a line: no addresses, no repeats.
    const said = r.stderr.split('\n').filter((l) => l.includes('cut.mp4: error:'));
    expect(said).toHaveLength(1);
    expect(said[0]).not.toMatch(/@ 0x|offset 0x/);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('[')).length).toBe(0);
    const lines = readFileSync(join(out, 'cut.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.frame)).toEqual(Array.from({ length: decoded }, (_, n) => n));
    lines.forEach((l, n) => expect(Math.abs(l.components[0].cx - (4 + n + 3.5))).toBeLessThanOrEqual(1));
  });
});

describe('fromVideoFile (Node, ffmpeg)', () => {
  for (const name of [...Object.keys(clips), ...Object.keys(containers)]) {
    it(`decodes every frame of ${name} in order, with the container's timestamps and the right content`, async () => {
      const info = await probeVideoFile(join(dir, name));
      expect(info.frames).toBe(frames);
      expect([info.width, info.height]).toEqual([64, 48]);
      expect(info.container).toBe(containerNames[name] ?? 'mp4');
      const results = await lastValueFrom(
        fromVideoFile(ctx, join(dir, name)).pipe(threshold({ level: 128 }), label({ algorithm: 'auto' }), features(), readResults(), toArray()),
      );
      expect(results).toHaveLength(frames);
      expect(results.map((r) => r.timeUs)).toEqual(info.timestampsUs);
      expect(info.timestampsUs).toEqual(Array.from({ length: frames }, (_, n) => n * 100_000));
      results.forEach((r, n) => {
        const f = r.features!;
        expect(f.label.length, `frame ${n}`).toBe(1);
        // Within a pixel of the square drawn at (4 + 4n, 8 + 2n): decoder rounding blurs its edges.
        expect(Math.abs(f.cx[0] - (4 + 4 * n + 3.5)), `frame ${n} cx`).toBeLessThanOrEqual(1);
        expect(Math.abs(f.cy[0] - (8 + 2 * n + 3.5)), `frame ${n} cy`).toBeLessThanOrEqual(1);
        expect(Math.abs(f.area[0] - 64), `frame ${n} area`).toBeLessThanOrEqual(12);
      });
    });
  }

  it('shows pixels that are not square at their shape: twice as wide as tall, a 64 px wide Matroska clip is 128 px wide', async () => {
    const info = await probeVideoFile(join(dir, 'wide.mkv'));
    expect([info.width, info.height, info.storedWidth, info.storedHeight, info.frames]).toEqual([128, 48, 128, 48, frames]);
    const results = await lastValueFrom(fromVideoFile(ctx, join(dir, 'wide.mkv')).pipe(threshold({ level: 128 }), features(), readResults(), toArray()));
    expect(results).toHaveLength(frames);
    results.forEach((r, n) => {
      expect([r.width, r.height, r.features!.label.length]).toEqual([128, 48, 1]);
      // The square 16×8 at (8 + 8n, 8 + 2n).
      expect(Math.abs(r.features!.cx[0] - (8 + 8 * n + 7.5)), `frame ${n} cx`).toBeLessThanOrEqual(1.5);
      expect(Math.abs(r.features!.cy[0] - (8 + 2 * n + 3.5)), `frame ${n} cy`).toBeLessThanOrEqual(1);
    });
  });

  it('says plainly when ffprobe (for containers other than MP4) is missing, and finds it beside a given ffmpeg', async () => {
    const err = await lastValueFrom(fromVideoFile(ctx, join(dir, 'h264.mkv'), { ffprobe: 'no-such-ffprobe' }).pipe(readResults(), toArray())).catch((e) => e);
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as Error).message).toMatch(/ffprobe \(part of ffmpeg\) was not found; install ffmpeg/);
    const beside = await lastValueFrom(fromVideoFile(ctx, join(dir, 'h264.mkv'), { ffmpeg: '/no/such/dir/ffmpeg' }).pipe(readResults(), toArray())).catch((e) => e);
    expect((beside as Error).message).toMatch(/ffprobe \(part of ffmpeg\) was not found/);
    expect(await probeVideoFile(join(dir, 'h264.mkv'), { ffprobe: 'no-such-ffprobe' }).catch((e) => e)).toBeInstanceOf(DecodeError);
  });

  it("probes a recorder's AVI with frames left out by the times it keeps, and a longer one packet by packet", async () => {
    // Frames 10–14 of 50 left out (a camera that dropped them): AVI keeps each frame's place, so the gap is in the times.
    const gap = join(dir, 'gap.avi');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=25', '-t', '2', '-vf', "select='not(between(n,10,14))'", '-fps_mode', 'vfr', '-c:v', 'mpeg4', gap]);
    const kept = Array.from({ length: 50 }, (_, n) => n).filter((n) => n < 10 || n > 14);
    const info = await probeVideoFile(gap);
    expect([info.container, info.codec, info.width, info.height, info.frames]).toEqual(['avi', 'mpeg4', 64, 48, 45]);
    expect(info.timestampsUs).toEqual(kept.map((n) => n * 40_000));
    expect(info.durationUs).toBe(2_000_000);
    // The clip's packets copied 400 times over (18,000 frames, 13 minutes): every packet read, in order.
    const long = join(dir, 'long.avi');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-stream_loop', '399', '-i', gap, '-c', 'copy', long]);
    const longer = await probeVideoFile(long);
    expect(longer.frames).toBe(400 * 45);
    expect(longer.durationUs).toBe(800_000_000);
    expect(longer.timestampsUs.slice(45, 50)).toEqual(kept.slice(0, 5).map((n) => 2_000_000 + n * 40_000));
    expect(longer.timestampsUs.every((t, i, all) => i === 0 || t > all[i - 1])).toBe(true);
  });

  it('decodes what ffmpeg decodes, MPEG-4 Part 2 included, and says plainly when ffmpeg is missing', async () => {
    const results = await lastValueFrom(fromVideoFile(ctx, join(dir, 'mpeg4.mp4')).pipe(threshold({ level: 128 }), label(), readResults(), toArray()));
    expect(results).toHaveLength(frames);
    const err = await lastValueFrom(fromVideoFile(ctx, join(dir, 'h264.mp4'), { ffmpeg: 'no-such-ffmpeg' }).pipe(readResults(), toArray())).catch((e) => e);
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as Error).message).toMatch(/ffmpeg was not found; install it/);
  });

  it('probes an MP4 by its index alone, as mp4box reads the whole file: index first or last, turned, cut after its index', async () => {
    const names = [...Object.keys(clips), 'long.mp4', 'cut.mp4', 'mpeg4.mp4', ...turns.map(turnedName)];
    for (const name of names) {
      const whole = readFileSync(join(dir, name));
      expect(await probeVideoFile(join(dir, name)), name).toEqual(probeVideo(whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer, join(dir, name)));
    }
  });

  it('demuxes an MP4 from its index as from the whole file, fragments placed back in the file (base offsets either way)', async () => {
    const frag = (name: string, flags: string) => {
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', join(dir, 'long.mp4'), '-c', 'copy', '-movflags', flags, join(dir, name)]);
      return name;
    };
    // ffmpeg's fragments give their base offset in the file (tfhd flag 1); default_base_moof counts from each moof.
    const names = ['long.mp4', 'h264.mp4', turnedName(turns[3]), frag('frag.mp4', 'frag_keyframe+empty_moov'), frag('fragmoof.mp4', 'frag_keyframe+empty_moov+default_base_moof'), frag('fragsmall.mp4', 'frag_every_frame+empty_moov+default_base_moof')];
    for (const name of names) {
      const whole = readFileSync(join(dir, name));
      const want = demuxMp4(whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer, name);
      const index = await readRanges(join(dir, name), readMp4Index);
      const got = demuxMp4(index.bytes, name, index.fileOffset);
      expect(got.chunks.length, name).toBeGreaterThan(0);
      expect(got, name).toEqual(want);
      // Each frame's bytes where the offsets say: an H.264 sample starts with its first NAL unit's length.
      for (const c of got.chunks) expect(whole.readUInt32BE(c.offset) + 4, `${name} at ${c.offset}`).toBeLessThanOrEqual(c.size);
    }
  });

  it('reads an MP4 larger than Node reads at once (over 4 GiB): probed and decoded as the same clip without its padding', async () => {
    // long.mp4 and 4.5 GiB of padding: a read of the whole file refuses it (Node's limit is 2 GiB), as it would a day
    // of recording.
    const big = join(dir, 'big.mp4');
    const size = padMp4(join(dir, 'long.mp4'), big, 4.5 * 2 ** 30);
    expect(statSync(big).size).toBe(size);
    const info = await probeVideoFile(big);
    expect(info).toEqual(await probeVideoFile(join(dir, 'long.mp4')));
    expect(info.frames).toBe(30);
    const centres = (file: string) =>
      lastValueFrom(fromVideoFile(ctx, file).pipe(threshold({ level: 128 }), features(), readResults(), toArray())).then((rs) => rs.map((r) => [r.timeUs, r.features!.cx[0], r.features!.cy[0]]));
    const got = await centres(big);
    expect(got).toHaveLength(30);
    expect(got).toEqual(await centres(join(dir, 'long.mp4')));
  });

  it('takes the VideoInfo it is given (probed once by the caller) instead of probing again; a bad one is refused at once', async () => {
    const file = join(dir, 'h264.mkv');
    const info = await probeVideoFile(file);
    // Times a second later than the file's: what comes out says which info was used.
    const later = { ...info, timestampsUs: info.timestampsUs.map((t) => t + 1_000_000) };
    const results = await lastValueFrom(fromVideoFile(ctx, file, { info: later }).pipe(threshold({ level: 128 }), features(), readResults(), toArray()));
    expect(results.map((r) => r.timeUs)).toEqual(later.timestampsUs);
    expect(results.map((r) => r.features!.label.length)).toEqual(info.timestampsUs.map(() => 1));
    for (const bad of [null, {}, { ...info, width: 0 }, { ...info, timestampsUs: 'x' }]) {
      expect(() => fromVideoFile(ctx, file, { info: bad as unknown as typeof info }), JSON.stringify(bad)).toThrow(/fromVideoFile: info must be what probeVideoFile gives for the file/);
    }
  });

  it("refuses bad options at once, and the browser's fromVideo says in Node which source to use", () => {
    expect(() => fromVideoFile(ctx, join(dir, 'h264.mp4'), { format: 'yuv' as 'gray' })).toThrow(InvalidOptionError);
    expect(() => fromVideoFile(ctx, join(dir, 'h264.mp4'), { format: 'yuv' as 'gray' })).toThrow(/format must be 'gray' or 'rgba', got yuv/);
    expect(() => fromVideoFile(ctx, join(dir, 'h264.mp4'), { maxInFlight: 0 })).toThrow(/maxInFlight/);
    expect(() => fromVideo(ctx, join(dir, 'h264.mp4'))).toThrow(InvalidOptionError);
    expect(() => fromVideo(ctx, join(dir, 'h264.mp4'))).toThrow(/in Node use fromVideoFile from 'flowmark\/node'/);
  });

  it('gives the same frames on the CPU (readVideoFrames): pixels, turn and times; bad options refused at once', async () => {
    const name = join(dir, turnedName(turns[1]));
    const cpu: { width: number; height: number; data: Uint8Array | Uint8ClampedArray; timeUs?: number }[] = [];
    for await (const f of readVideoFrames(name)) cpu.push(f);
    const info = await probeVideoFile(name);
    expect(cpu.map((f) => f.timeUs)).toEqual(info.timestampsUs);
    expect(cpu.every((f) => f.width === info.width && f.height === info.height && f.data.length === info.width * info.height)).toBe(true);
    // The GPU sees exactly these pixels: the square's place from them, as the GPU's features put it.
    const gpu = await lastValueFrom(fromVideoFile(ctx, name).pipe(threshold({ level: 128 }), label({ algorithm: 'auto' }), features(), readResults(), toArray()));
    cpu.forEach((f, n) => {
      let [sum, sx, sy] = [0, 0, 0];
      for (let p = 0; p < f.data.length; p++) {
        if (f.data[p] > 128) [sum, sx, sy] = [sum + 1, sx + (p % f.width), sy + Math.floor(p / f.width)];
      }
      expect(sum, `frame ${n}`).toBe(gpu[n].features!.area[0]);
      expect(sx / sum).toBeCloseTo(gpu[n].features!.cx[0], 3);
      expect(sy / sum).toBeCloseTo(gpu[n].features!.cy[0], 3);
    });
    // Left after one frame: ffmpeg is stopped.
    const frames = readVideoFrames(name, { format: 'rgba' });
    const rgba = await frames.next();
    expect(rgba.value!.data.length).toBe(info.width * info.height * 4);
    await frames.return(undefined);
    await new Promise((r) => setTimeout(r, 100));
    expect(ffmpegsOn(dir)).toEqual([]);
    expect(() => readVideoFrames(name, { format: 'yuv' as 'gray' })).toThrow(/readVideoFrames: format must be 'gray' or 'rgba', got yuv/);
    expect(() => readVideoFrames(name, { maxInFlight: 2 } as never)).toThrow(InvalidOptionError);
    await expect(readVideoFrames(join(dir, 'missing.mp4')).next()).rejects.toThrow(DecodeError);
  });

  it('stops ffmpeg and releases buffers when unsubscribed early', async () => {
    const firstTwo = await lastValueFrom(fromVideoFile(ctx, join(dir, 'h264.mp4')).pipe(threshold(), label(), readResults(), take(2), toArray()));
    expect(firstTwo.map((r) => r.seq)).toEqual([0, 1]);
    await new Promise((r) => setTimeout(r, 100));
    expect(ctx.pool.stats().inUse).toBe(0);
    expect(ffmpegsOn(dir)).toEqual([]); // no ffmpeg left running
  });

  for (const [file, message] of [
    ['missing.mp4', /no such file/],
    ['empty.mp4', /empty file/],
    ['truncated.mp4', /truncated|not an MP4|could not decode|decoded/],
    ['audio.mp4', /no video track/],
    ['noise.avi', /not a video ffmpeg can read/],
    ['audio.mkv', /no video track/],
  ] as const) {
    it(`a bad input (${file}) is a DecodeError on the stream, with nothing left held`, async () => {
      const err = await lastValueFrom(fromVideoFile(ctx, join(dir, file)).pipe(threshold(), label(), readResults(), toArray())).catch((e) => e);
      expect(err).toBeInstanceOf(DecodeError);
      expect((err as Error).message).toMatch(message);
      await new Promise((r) => setTimeout(r, 50));
      expect(ctx.pool.stats().inUse).toBe(0);
    });
  }

  it('a video that fails part way delivers every frame decoded before the DecodeError', async () => {
    const seqs: number[] = [];
    const err = await new Promise<unknown>((resolve) =>
      fromVideoFile(ctx, join(dir, 'cut.mp4'), { maxInFlight: 4 })
        .pipe(threshold({ level: 128 }), label({ passes: 'until-converged' }), readResults())
        .subscribe({ next: (r) => seqs.push(r.seq), error: resolve, complete: () => resolve(null) }),
    );
    expect(err).toBeInstanceOf(DecodeError);
    const decoded = Number(/decoded (\d+) of 30 frames/.exec((err as Error).message)?.[1]);
    expect(decoded).toBeGreaterThan(0);
    expect(seqs).toEqual(Array.from({ length: decoded }, (_, n) => n));
  });

  it("delivers frames as displayed, turned as the track header says (all eight turns), as ffmpeg's own rotation does", async () => {
    for (const t of turns) {
      const file = join(dir, turnedName(t));
      const want = turnedBoxAt(t);
      const info = await probeVideoFile(file);
      expect([info.width, info.height, info.storedWidth, info.storedHeight], file).toEqual([want.width, want.height, 64, 48]);
      const results = await lastValueFrom(fromVideoFile(ctx, file).pipe(threshold({ level: 128 }), features(), readResults(), toArray()));
      expect(results).toHaveLength(3);
      for (const r of results) {
        const f = r.features!;
        expect([r.width, r.height], file).toEqual([want.width, want.height]);
        expect([f.label.length, f.x0[0], f.y0[0], f.x1[0], f.y1[0]], file).toEqual([1, want.x0, want.y0, want.x1, want.y1]);
      }
      // ffmpeg's own autorotation (quarter turns; Debian's ffmpeg 5.1 ignores mirrors) puts the box there too.
      if (info.display.mirrored) continue;
      const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-']);
      const lit = [...raw.keys()].filter((p) => raw[p] > 128);
      const xs = lit.map((p) => p % want.width);
      const ys = lit.map((p) => Math.floor(p / want.width));
      expect([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], `${file} by ffmpeg`).toEqual([want.x0, want.y0, want.x1, want.y1]);
    }
  });
});
