/**
 * Opening a video file on the host (Node): `probeVideoFile` — an MP4's index read by its boxes (readMp4Index.ts), any
 * other container's packets by ffprobe — beside the whole-file read it replaced for MP4s (`readFile` + mp4box, the
 * reference measured in the same run; refused by Node over 2 GiB), in milliseconds, the best and the worst of
 * `--rounds` rounds each.
 *
 *   node dist/bench/timing/probe.js [--rounds 3] [FILE ...]
 *
 * Without files it makes its own (ffmpeg, in a temporary folder): 30 s of 1080p H.264, the same remuxed to Matroska,
 * and the MP4 padded to 3 GiB (a sparse `free` box, no disk used), as a recorder's long file is.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { probeVideo } from '../../index.js';
import { probeVideoFile } from '../../node.js';
import { padMp4 } from '../../tests/support/clips.js';
import { benchArgs } from '../support/args.js';

const { values, positionals } = benchArgs(import.meta.url, { rounds: { type: 'string', default: '3' } }, ['rounds'], true);
const rounds = Math.max(1, Math.round(Number(values.rounds)));

function ownFiles(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'flowmark-probe-'));
  const mp4 = join(dir, 'hd.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=1920x1080:r=30:d=30', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', mp4]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', mp4, '-c', 'copy', join(dir, 'hd.mkv')]);
  const padded = join(dir, 'hd-3GiB.mp4');
  padMp4(mp4, padded, 3 * 2 ** 30);
  return [mp4, join(dir, 'hd.mkv'), padded];
}

/** The fastest and slowest of `rounds` runs of `f`, in ms; or what it threw. */
async function timed(f: () => Promise<unknown>): Promise<string> {
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    try {
      await f();
    } catch (e) {
      return `fails: ${(e as Error).message.replace(/^.*?: /, '').slice(0, 60)}`;
    }
    ms.push(performance.now() - t0);
  }
  return `${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)}`;
}

const files = positionals.length ? positionals : ownFiles();
console.log(`probeVideoFile — ${new Date().toISOString()}, node ${process.version}, ${rounds} rounds (ms: fastest–slowest)`);
console.log('\n| file | MB | container | frames | probeVideoFile ms | whole read + mp4box ms (before) |');
console.log('|---|---|---|---|---|---|');
for (const file of files) {
  const info = await probeVideoFile(file);
  const mp4 = info.container === 'mp4';
  const whole = mp4
    ? await timed(async () => {
        const b = await readFile(file);
        probeVideo(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, file);
      })
    : 'not an MP4 (ffprobe either way)';
  console.log(`| ${basename(file)} | ${(statSync(file).size / 1e6).toFixed(1)} | ${info.container} | ${info.frames} | ${await timed(() => probeVideoFile(file))} | ${whole} |`);
}
