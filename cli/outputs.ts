/**
 * Where the `flowmark` commands write: the output folder made before any GPU work (with a message that says why when it
 * cannot be), and the files each input will write, so that two inputs never write one file.
 */
import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir, open, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { lastValueFrom, tap, type Observable, type OperatorFunction } from 'rxjs';
import { FlowmarkError, GpuContext, type FrameResult, type GpuFrame, type PixelImage, type VideoInfo } from '../index.js';
import { fromVideoFile } from '../node.js';
import { UsageError } from './args.js';
import { stderrIsTerminal } from './quietDawn.js';

/** An output folder that cannot be made or written (exit code 1). */
export class OutputError extends FlowmarkError {
  override name = 'OutputError';
}

/**
 * Files taken as video: MP4 and QuickTime, and the containers recorders and cameras write (AVI, Matroska, WebM,
 * MPEG-TS, MPEG-PS, Flash, ASF, 3GP, Ogg, raw H.264 and H.265); everything else is read as an image (PNG, JPEG or WebP, by its bytes).
 */
export const videoExtensions = ['.mp4', '.m4v', '.mov', '.avi', '.mkv', '.webm', '.ts', '.mts', '.m2ts', '.mpg', '.mpeg', '.flv', '.wmv', '.asf', '.3gp', '.ogv', '.h264', '.264', '.h265', '.hevc'];

/** The video files the commands take, as their help says it. */
export const videoFilesText = 'MP4, MOV, AVI, MKV, WebM, MPEG-TS and the other containers ffmpeg reads, by extension';

export const isVideo = (file: string) => videoExtensions.includes(extname(file).toLowerCase());

/** The stem every output of `file` is named after. */
export const outputStem = (file: string) => basename(file, extname(file));

/**
 * Makes `dir` and its missing parents, one level at a time. (Node's recursive mkdir never returns under /proc,
 * where every level says ENOENT; here a level that cannot be made is an error naming it.)
 */
export async function makeOutDir(dir: string): Promise<void> {
  const path = resolve(dir);
  const missing: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    try {
      if (!(await stat(p)).isDirectory()) throw new OutputError(`--out-dir ${dir}: ${p} exists and is not a folder`);
      break;
    } catch (e) {
      if (e instanceof OutputError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: a file stands where a parent folder should; the walk up finds and names it.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(p) === p) throw new OutputError(`--out-dir ${dir}: cannot use ${p} (${(e as Error).message})`);
      missing.unshift(p);
    }
  }
  for (const p of missing) {
    try {
      await mkdir(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new OutputError(`--out-dir ${dir}: cannot create ${p} (${(e as Error).message})`);
    }
  }
  // A folder that exists may still refuse files (read-only, /proc): found by writing one, before any work.
  const probe = join(path, `.flowmark-write-check-${process.pid}`);
  try {
    await writeFile(probe, '', { flag: 'wx' });
    await unlink(probe);
  } catch (e) {
    throw new OutputError(`--out-dir ${dir}: cannot write files in ${path} (${(e as Error).message})`);
  }
}

/**
 * Checks before any work that `file` can be written as `flag`'s output: not a folder, in a folder that exists, and
 * writable (opened for appending, so an existing file is left as it is; one made by the check is removed).
 */
export async function checkOutFile(flag: string, file: string): Promise<void> {
  const existed = await stat(file).then(
    (s) => {
      if (s.isDirectory()) throw new OutputError(`${flag} ${file}: is a folder; give a file name in it`);
      return true;
    },
    (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return false;
      throw new OutputError(`${flag} ${file}: cannot write it (${e.message})`);
    },
  );
  if (!existed) {
    const folder = dirname(resolve(file));
    const s = await stat(folder).catch(() => null);
    if (!s?.isDirectory()) throw new OutputError(`${flag} ${file}: the folder ${folder} does not exist`);
  }
  try {
    await (await open(file, 'a')).close();
    if (!existed) await unlink(file);
  } catch (e) {
    throw new OutputError(`${flag} ${file}: cannot write it (${(e as Error).message})`);
  }
}

/** What an input writes in the output folder: file names, and for videos' per-frame files their prefix. */
export interface Outputs {
  names: string[];
  framePrefix: string | null;
}

/** What each input of `flowmark label` writes (`--stats`: a JSON file beside the labels; `--labels`: per-frame files of videos). */
export function labelOutputs(file: string, stats: boolean, labels: boolean): Outputs {
  const stem = outputStem(file);
  if (isVideo(file)) return { names: [`${stem}.jsonl`], framePrefix: labels ? `${stem}-` : null };
  return { names: stats ? [`${stem}.u32`, `${stem}.json`] : [`${stem}.u32`], framePrefix: null };
}

/**
 * Refuses, before any work, inputs that would write the same output file (`a/x.png b/x.png` both write x.u32), or
 * one input given twice: a `UsageError` naming both.
 */
export function checkOutputClashes(files: string[], outDir: string, outputsOf: (file: string) => Outputs): void {
  const owner = new Map<string, string>();
  const outs = files.map(outputsOf);
  const clash = (name: string, a: string, b: string) =>
    new UsageError(`${a} and ${b} would both write ${join(outDir, name)}; rename one, or run them with different --out-dir`);
  files.forEach((file, i) => {
    for (const name of outs[i].names) {
      const other = owner.get(name);
      if (other !== undefined) throw clash(name, other, file);
      owner.set(name, file);
    }
  });
  // A video's per-frame label files (<stem>-00000.u32, …) against every other input's names.
  files.forEach((file, i) => {
    const prefix = outs[i].framePrefix;
    if (!prefix) return;
    for (const [name, other] of owner) {
      if (other !== file && name.startsWith(prefix) && /^\d+\.u32$/.test(name.slice(prefix.length))) throw clash(name, other, file);
    }
  });
}

/** Where progress goes: stderr, or a stand-in with the same two members. */
export interface ProgressOut {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Seconds between progress lines when stderr is not a terminal (a log file, a CI job). */
const lineEverySeconds = 10;

/**
 * Progress of a video on stderr: frames done of the total, and the rate they are processed at. On a terminal a bar
 * redrawn in place (`end` closes its line); elsewhere a plain line at most every ten seconds, so that a log shows a
 * long run moving without a line per frame.
 */
export function progressBar(name: string, total: () => number, out: ProgressOut = { isTTY: stderrIsTerminal(), write: (t) => process.stderr.write(t) }, now: () => number = () => performance.now()): { update: (done: number) => void; end: () => void } {
  const start = now();
  let lastLine = start;
  const rate = (n: number) => `${(n / Math.max(1e-3, (now() - start) / 1000)).toFixed(0)} frames/s`;
  if (!out.isTTY) {
    return {
      update: (n) => {
        if (now() - lastLine < lineEverySeconds * 1000) return;
        lastLine = now();
        out.write(`${name}: ${n}/${total()} frames, processed at ${rate(n)}\n`);
      },
      end: () => undefined,
    };
  }
  return {
    update: (n) => {
      const t = total();
      const done = t ? Math.min(20, Math.round((20 * n) / t)) : 0;
      out.write(`\r${name} [${'#'.repeat(done)}${'.'.repeat(20 - done)}] ${n}/${t} frames, ${rate(n)} `);
    },
    end: () => out.write('\n'),
  };
}

/**
 * A command's run over its inputs: the output folder made first, one GPU context for every file, each file's error
 * reported (`<file>: error: …`) while the others still run, the context destroyed at the end. Returns the exit
 * code: 1 if any file failed. A lost device ends the run.
 */
export async function runOverInputs(
  files: string[],
  outDir: string,
  each: (ctx: GpuContext, file: string) => Promise<void>,
  warn: (s: string) => void,
  warm?: (ctx: GpuContext) => Observable<unknown>,
): Promise<number> {
  await makeOutDir(outDir);
  const ctx = await GpuContext.create({ label: 'flowmark-cli', profile: true });
  let failed = 0;
  try {
    if (warm) await compileKernels(ctx, warm, warn);
    for (const file of files) {
      try {
        await each(ctx, file);
      } catch (e) {
        failed++;
        warn(`${file}: error: ${(e as Error).message.replace(`${file}: `, '')}`);
        if (ctx.lostError) throw ctx.lostError;
      }
    }
  } finally {
    ctx.destroy();
  }
  return failed ? 1 : 0;
}

/**
 * Runs `warm` (the command's chain over a small blank frame) once, so that its kernels are compiled before the first
 * input and that input's GPU time is its own. Compiling takes a software GPU (lavapipe) minutes on a machine's first
 * run: past a second and a half a line says what is happening, and the time it took is said when done.
 */
export async function compileKernels(ctx: GpuContext, warm: (ctx: GpuContext) => Observable<unknown>, warn: (s: string) => void, sayAfterMs = 1500): Promise<void> {
  const start = performance.now();
  const timer = setTimeout(() => warn(`flowmark: compiling the GPU kernels for ${ctx.adapterName} (once per machine; minutes on a software GPU)…`), sayAfterMs);
  try {
    await lastValueFrom(warm(ctx), { defaultValue: null });
  } finally {
    clearTimeout(timer);
  }
  const ms = performance.now() - start;
  if (ms >= sayAfterMs) warn(`flowmark: kernels compiled in ${(ms / 1000).toFixed(1)} s`);
}

/** A blank gray frame of 64×64 for `compileKernels`. */
export const blankFrame = (): PixelImage => ({ width: 64, height: 64, format: 'gray', data: new Uint8Array(64 * 64).fill(128) });

/**
 * One video through `chain`: the text `lineOf` makes of each result appended to `path` as its frame completes
 * (synchronously, so an error that ends the stream cannot overtake a line: a video that fails part way keeps the
 * lines of the frames done, and the error says how many), progress on stderr; `probed`, the file's
 * VideoInfo where the caller probed it already. What the summary needs back.
 */
export async function writeVideoLines(
  ctx: GpuContext,
  file: string,
  path: string,
  chain: OperatorFunction<GpuFrame, FrameResult>,
  lineOf: (r: FrameResult) => string,
  format: 'gray' | 'rgba' = 'gray',
  probed?: VideoInfo,
): Promise<{ frames: number; info: VideoInfo | null; seconds: number }> {
  const out = openSync(path, 'w');
  let info: VideoInfo | null = null;
  const start = performance.now();
  const bar = progressBar(basename(file, extname(file)), () => info?.frames ?? 0);
  let frames = 0;
  try {
    await lastValueFrom(
      fromVideoFile(ctx, file, { format, info: probed, onInfo: (i) => (info = i) }).pipe(
        chain,
        tap((r) => {
          writeSync(out, lineOf(r));
          frames++;
          bar.update(frames);
        }),
      ),
      { defaultValue: null },
    );
  } catch (e) {
    closeSync(out);
    // Nothing decoded: no empty file left behind to pass for a result.
    if (frames === 0) {
      unlinkSync(path);
      throw e;
    }
    throw new Error(`${(e as Error).message} (${frames} frames written to ${path})`, { cause: e });
  } finally {
    bar.end();
  }
  closeSync(out);
  return { frames, info, seconds: (performance.now() - start) / 1000 };
}
