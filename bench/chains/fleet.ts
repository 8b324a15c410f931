/**
 * One machine's capacity for many cameras, each part measured over one shared window of wall time:
 * - decode: N ffmpeg processes decoding a clip to gray as fast as they can (the CPU; `--hwaccel cuda` also tries
 *   NVIDIA's decoder where this ffmpeg offers it): frames/s in all.
 * - pixel: W processes, each with S streams of frames already on the GPU through the tracking chain's pixel work
 *   (background → morphology → features → readback, blobFeatures): frames/s in all, all processes timed over the
 *   same window.
 * - cameras: a Redis server, W `flowmark worker` processes, C cameras reading the clip as a camera sends it (its
 *   frame rate, looping): results/s, frames dropped, and, with `--failover`, a worker killed and the time until each
 *   of its cameras writes again.
 *
 *   node dist/bench/chains/fleet.js --clip FILE [--decode 1,4,16] [--hwaccel cuda] [--pixel-workers 1,2,4,8]
 *        [--streams 16] [--size 1920x1080] [--workers 8] [--cameras 32,64] [--failover] [--seconds 20]
 *        [--ffmpeg ffmpeg] [--redis-server redis-server] [--json FILE]
 *   node dist/bench/chains/fleet.js --write-clip FILE   # the 1080p street clip these figures use (10 s, 8 walkers)
 *
 * A part runs only where its list is given. The window starts after every process has warmed up (`--warm-s`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, takeWhile, tap, toArray } from 'rxjs';
import { GpuContext, blobFeatures, fromGpuBuffers } from '../../index.js';
import { addCamera, parseCameraResult, type CameraResult, type RedisLink } from '../../node.js';
import { defaultDawnFlags } from '../../extend.js';
import { rng, surveillanceScene } from '../../reference.js';
import { grayBuffer, runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';
import { startRedis } from '../../tests/support/redisServer.js';

const { values, refuse } = benchArgs(
  import.meta.url,
  {
    clip: { type: 'string' },
    decode: { type: 'string' },
    hwaccel: { type: 'string' },
    'pixel-workers': { type: 'string' },
    streams: { type: 'string', default: '16' },
    size: { type: 'string', default: '1920x1080' },
    workers: { type: 'string', default: '8' },
    cameras: { type: 'string' },
    failover: { type: 'boolean', default: false },
    seconds: { type: 'string', default: '20' },
    'warm-s': { type: 'string', default: '5' },
    ffmpeg: { type: 'string', default: 'ffmpeg' },
    'redis-server': { type: 'string', default: 'redis-server' },
    json: { type: 'string' },
    'write-clip': { type: 'string' },
    // A child of the pixel part: its streams, and the window (ms since 1970) it counts frames in.
    child: { type: 'string', default: '' },
  },
  ['decode', 'pixel-workers', 'streams', 'workers', 'cameras', 'seconds', 'warm-s'],
);
const list = (name: string) => (String(values[name as keyof typeof values] || '') ? String(values[name as keyof typeof values]).split(',').map(Number) : []);
const seconds = Number(values.seconds);
const warmMs = Number(values['warm-s']) * 1000;
const [width, height] = String(values.size).split('x').map(Number);
const self = fileURLToPath(import.meta.url);
const cli = fileURLToPath(new URL('../../cli/main.js', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const report: Record<string, unknown> = {};

/** The machine's CPU time so far (/proc/stat): busy and total jiffies. */
function cpuTimes(): [number, number] {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + (f[4] ?? 0);
  const total = f.reduce((a, b) => a + b, 0);
  return [total - idle, total];
}
/** The share of the machine's cores busy between two cpuTimes() readings, in cores. */
const coresBusy = (a: [number, number], b: [number, number]) => ((b[0] - a[0]) / (b[1] - a[1])) * cpus().length;

/** The clip's size from ffprobe beside ffmpeg. */
function clipSize(clip: string): [number, number, number] {
  const ffprobe = String(values.ffmpeg).replace(/ffmpeg$/, 'ffprobe');
  const out = spawnSync(ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,r_frame_rate', '-of', 'csv=p=0', clip], { encoding: 'utf8' }).stdout.trim();
  const [w, h, rate] = out.split(',');
  const [a, b] = rate.split('/').map(Number);
  return [Number(w), Number(h), a / (b || 1)];
}

const decodeCores = new Map<string, number>();

/** N ffmpeg decoding the clip (looped) to gray on stdout as fast as they can, bytes counted over the window. */
async function decodeRate(clip: string, n: number, hwaccel: string): Promise<number | null> {
  const [w, h] = clipSize(clip);
  const counts = new Array<number>(n).fill(0);
  let counting = false;
  const procs = Array.from({ length: n }, (_, i) => {
    const p = spawn(String(values.ffmpeg), ['-v', 'error', ...(hwaccel ? ['-hwaccel', hwaccel] : []), '-stream_loop', '-1', '-i', clip, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { stdio: ['ignore', 'pipe', 'pipe'] });
    p.stdout!.on('data', (d: Buffer) => counting && (counts[i] += d.length));
    return p;
  });
  await sleep(3000);
  const alive = procs.every((p) => p.exitCode === null);
  counting = true;
  const cpu0 = cpuTimes();
  await sleep(seconds * 1000);
  const cpu1 = cpuTimes();
  counting = false;
  procs.forEach((p) => p.kill('SIGKILL'));
  if (!alive) return null;
  decodeCores.set(`${n},${hwaccel}`, coresBusy(cpu0, cpu1));
  return counts.reduce((a, b) => a + b, 0) / (w * h) / seconds;
}

/** A child of the pixel part: `streams` streams of 1080p on the GPU, frames completed within [from, to) counted. */
async function pixelChild(streams: number, from: number, to: number): Promise<void> {
  const ctx = await GpuContext.create({ label: 'fleet-bench', dawnFlags: defaultDawnFlags });
  const r = rng(9);
  const own = Array.from({ length: streams }, (_, s) =>
    Array.from({ length: 4 }, (_, i) => grayBuffer(ctx, Uint8Array.from({ length: width * height }, (_, p) => ((p % width) >> 3) + r() * 24 + (i === 3 && p % width < 64 ? 120 : 0)), `bench:stream${s}:${i}`)),
  );
  let done = 0;
  await Promise.all(
    own.map((bufs) =>
      lastValueFrom(
        fromGpuBuffers(ctx, (function* () { for (let i = 0; ; i++) yield { buffer: bufs[i % bufs.length], width, height, format: 'gray' as const }; })(), { maxInFlight: 2 }).pipe(
          blobFeatures({ minArea: 50 }),
          tap(() => {
            const now = Date.now();
            if (now >= from && now < to) done++;
          }),
          takeWhile(() => Date.now() < to),
          toArray(),
        ),
      ),
    ),
  );
  process.stdout.write(`${JSON.stringify({ frames: done })}\n`);
  ctx.destroy();
}

/** Runs node processes at once; their stdout each. */
function runAll(args: string[][]): Promise<string[]> {
  return Promise.all(
    args.map(
      (a) =>
        new Promise<string>((resolve, reject) => {
          const p = spawn(process.execPath, a, { stdio: ['ignore', 'pipe', 'inherit'] });
          let out = '';
          p.stdout!.on('data', (d) => (out += String(d)));
          p.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}`))));
        }),
    ),
  );
}

/** W pixel children at once, each `streams` streams, over one window: frames/s in all. */
async function pixelRate(workers: number, streams: number): Promise<number> {
  const from = Date.now() + warmMs + 4000;
  const to = from + seconds * 1000;
  const outs = await runAll(Array.from({ length: workers }, () => [self, '--child', `${streams},${from},${to}`, '--size', String(values.size)]));
  return outs.reduce((a, o) => a + JSON.parse(o.trim().split('\n').pop()!).frames, 0) / seconds;
}

const results = async (redis: RedisLink, from = '-'): Promise<[string, CameraResult][]> =>
  ((await redis.sendCommand(['XRANGE', 'flowmark:results', from, '+'])) as [string, string[]][]).map(([id, f]) => [id, parseCameraResult(f)]);

/** C cameras over W workers through the engine: results/s and drops over the window; with failover, a worker killed. */
async function camerasRate(clip: string, workers: number, cameras: number, prefixRun: number) {
  const [, , rate] = clipSize(clip);
  const server = await startRedis(String(values['redis-server']));
  const redis = { url: server.url, client: await server.client() };
  const procs: ChildProcess[] = Array.from({ length: workers }, (_, i) =>
    spawn(process.execPath, [cli, 'worker', '--redis', redis.url, '--name', `w${i}`], { stdio: ['ignore', 'ignore', 'ignore'] }),
  );
  try {
    for (let t = 0; Number(await redis.client.sendCommand(['ZCARD', 'flowmark:workers'])) < workers; t++) {
      if (t > 600) throw new Error('workers did not start');
      await sleep(100);
    }
    for (let i = 0; i < cameras; i++) await addCamera(redis.client, { id: `cam-${prefixRun}-${i}`, url: clip, camera: { loop: true } });
    await sleep(warmMs + 3000);
    const start = Date.now();
    const before = await results(redis.client);
    const firstId = before.length ? before[before.length - 1][0] : '-';
    const cpu0 = cpuTimes();
    await sleep(seconds * 1000);
    const cores = coresBusy(cpu0, cpuTimes());
    const window = (await results(redis.client, firstId)).map(([, r]) => r).filter((r) => r.at >= start && r.at < start + seconds * 1000);
    const perCamera = new Map<string, CameraResult[]>();
    for (const r of window) perCamera.set(r.camera, [...(perCamera.get(r.camera) ?? []), r]);
    const dropped = [...perCamera.values()].reduce((a, rs) => a + rs[rs.length - 1].dropped - rs[0].dropped, 0);
    // Runs begun within the window: a worker too busy to renew its leases in time loses cameras it still runs.
    const runsBegun = [...perCamera.values()].reduce((a, rs) => a + new Set(rs.map((r) => r.run)).size - 1, 0);
    const out: Record<string, number> = { workers, cameras, fps: rate, resultsPerS: window.length / seconds, droppedPerS: dropped / seconds, camerasWriting: perCamera.size, runsBegun, coresBusy: cores };
    if (values.failover) {
      const last = await results(redis.client);
      const owner = new Map(last.map(([, r]) => [r.camera, r.worker]));
      const victims = [...owner].filter(([, w]) => w === 'w0').map(([c]) => c);
      const killedAt = Date.now();
      procs[0].kill('SIGKILL');
      await sleep(8000);
      const afterKill = (await results(redis.client, last[last.length - 1][0])).map(([, r]) => r);
      const gaps = victims.map((c) => (afterKill.find((r) => r.camera === c && r.worker !== 'w0')?.at ?? Infinity) - killedAt);
      out.failoverCameras = victims.length;
      out.failoverMaxMs = Math.max(...gaps);
      out.failoverMedianMs = gaps.sort((a, b) => a - b)[gaps.length >> 1];
    }
    return out;
  } finally {
    procs.forEach((p) => p.kill('SIGKILL'));
    await server.stop();
  }
}

/** The street clip: a seeded 1080p scene of 8 large walkers, H.264 with a key frame a second and no B-frames. */
async function writeClip(file: string): Promise<void> {
  const s = surveillanceScene(11, { width: 1920, height: 1080, frames: 300, objects: 8, size: [150, 260], speed: [6, 10] });
  const args = ['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${s.width}x${s.height}`, '-r', '30', '-i', '-'];
  const p = spawn(String(values.ffmpeg), [...args, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-g', '30', '-bf', '0', '-pix_fmt', 'yuv420p', file], { stdio: ['pipe', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => p.once('exit', resolve));
  for (const frame of s.frames) if (!p.stdin!.write(frame)) await new Promise((r) => p.stdin!.once('drain', r));
  p.stdin!.end();
  if ((await exited) !== 0) throw new Error(`ffmpeg could not write ${file}`);
}

async function main(): Promise<void> {
  if (values['write-clip']) return writeClip(String(values['write-clip']));
  if (values.child) {
    const [streams, from, to] = String(values.child).split(',').map(Number);
    return pixelChild(streams, from, to);
  }
  const clip = values.clip as string | undefined;
  if ((list('decode').length || list('cameras').length) && !clip) refuse('--clip FILE is needed for --decode and --cameras');
  if (list('decode').length) {
    const rows: Record<string, number | null>[] = [];
    for (const n of list('decode')) {
      const row: Record<string, number | null> = { processes: n, cpu: await decodeRate(clip!, n, '') };
      row.cpuCores = decodeCores.get(`${n},`) ?? null;
      if (values.hwaccel) {
        row[String(values.hwaccel)] = await decodeRate(clip!, n, String(values.hwaccel));
        row[`${values.hwaccel}Cores`] = decodeCores.get(`${n},${values.hwaccel}`) ?? null;
      }
      rows.push(row);
    }
    console.log(`\nDecode of ${clip} (${clipSize(clip!).slice(0, 2).join('×')}) to gray, frames/s in all over ${seconds} s:`);
    for (const r of rows) console.log(`  ${JSON.stringify(r)}`);
    report.decode = rows;
  }
  if (list('pixel-workers').length) {
    const rows = [];
    for (const w of list('pixel-workers')) rows.push({ workers: w, streams: Number(values.streams), fps: await pixelRate(w, Number(values.streams)) });
    console.log(`\nPixel chain (blobFeatures) of ${values.size} from frames on the GPU, ${values.streams} streams a process, frames/s in all over one ${seconds} s window:`);
    for (const r of rows) console.log(`  ${r.workers} processes: ${r.fps.toFixed(0)}`);
    report.pixel = rows;
  }
  if (list('cameras').length) {
    const rows = [];
    let k = 0;
    for (const c of list('cameras')) rows.push(await camerasRate(clip!, Number(values.workers), c, k++));
    console.log(`\nCameras through the engine (${values.workers} workers, ${clip} looped at its rate), over ${seconds} s:`);
    for (const r of rows) console.log(`  ${JSON.stringify(r)}`);
    report.cameras = rows;
  }
  if (values.json) writeFileSync(String(values.json), JSON.stringify(report, null, 2));
}

runMain(main);
