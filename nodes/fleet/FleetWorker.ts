/**
 * A fleet worker: takes up cameras from a Redis fleet (cameraFleet.ts) and runs each through fromCameraUrl and
 * blobTracking on its GPU context, writing a CameraResult per frame to the results stream. Every `leaseMs / 4` it
 * marks itself alive, renews its cameras, and takes new or abandoned ones (idle past `leaseMs`: their worker died or
 * stalled) up to its share, ceil(cameras / live workers); above its share it hands the newest over. A worker that
 * cannot renew for `leaseMs` stops its cameras, since another may have taken them. A write is checked on the server
 * against the camera's owner, run and last seq (fleetScripts.ts): no result is written twice or out of order.
 *
 * A camera whose source ends (a file without `loop`) is acknowledged once its results are written: done, no worker
 * takes it again. A camera taken over starts a new run: a new connection, a fresh background model and tracker (track ids are a
 * run's own), its line counts continuing from the last written.
 */
import { lastValueFrom, toArray, type Subscription } from 'rxjs';
import type { GpuContext } from '../../src/core/GpuContext.js';
import { InvalidOptionError } from '../../src/core/errors.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';
import { fromCameraUrl } from '../sources/fromCameraUrl.js';
import { fromPixels } from '../sources/fromPixels.js';
import { blobTracking } from '../track/blobTracking.js';
import { cameraOptions, trackingOptions, type CameraSpec } from './CameraSpec.js';
import { cameraResult, type LineCounts } from './CameraResult.js';
import { checkFleetName, fleetKeys, workerGroup, type FleetKeys } from './fleetKeys.js';
import { beginScript, endScript, heartbeatScript, releaseScript, renewScript, writeScript } from './fleetScripts.js';
import { ensureGroup, entryFields, evalScript, type RedisLink } from './RedisLink.js';

export interface FleetWorkerOptions {
  /** The prefix of the fleet's keys (default 'flowmark'). */
  prefix?: string;
  /** The worker's consumer name, unique in the fleet (default host-pid-random). */
  name?: string;
  /** A camera not renewed for this long is taken by another worker (ms, default 2000). */
  leaseMs?: number;
  /** Most cameras this worker runs (default: no limit but its share). */
  maxCameras?: number;
  /** Results the stream keeps, about (older ones trimmed; default 1,000,000). */
  keep?: number;
  /** Hears each camera started or stopped, and why. */
  onEvent?: (event: FleetWorkerEvent) => void;
}

export type FleetWorkerEvent =
  | { type: 'started'; camera: string; run: number }
  /** lost: taken by another worker or removed from the fleet. */
  | { type: 'stopped'; camera: string; reason: 'lost' | 'handed over' | 'stopping' | 'error' | 'ended'; message?: string }
  /** The GPU device was lost: the worker stopped (`failure` holds the error); a new process is needed. */
  | { type: 'failed'; message: string };

/** Results a camera may have waiting to be written before it is stopped (the server is not keeping up). */
const maxWaitingWrites = 256;

interface Running {
  entry: string;
  spec: CameraSpec;
  run: number;
  next: number;
  base: LineCounts;
  sub: Subscription | null;
  writes: Promise<void>;
  waiting: number;
  stopped: boolean;
}

const keys = optionKeys<FleetWorkerOptions>({ prefix: true, name: true, leaseMs: true, maxCameras: true, keep: true, onEvent: true });

export class FleetWorker {
  readonly name: string;
  readonly #ctx: GpuContext;
  readonly #redis: RedisLink;
  readonly #keys: FleetKeys;
  readonly #leaseMs: number;
  readonly #maxCameras: number;
  readonly #keep: number;
  readonly #onEvent: (e: FleetWorkerEvent) => void;
  readonly #running = new Map<string, Running>();
  #timer: ReturnType<typeof setInterval> | null = null;
  #ticking: Promise<void> | null = null;
  #renewedAt = 0;
  #failure: Error | null = null;

  constructor(ctx: GpuContext, redis: RedisLink, options: FleetWorkerOptions = {}) {
    const who = 'FleetWorker';
    checkOptions(who, options, keys);
    const whole = (name: 'leaseMs' | 'maxCameras' | 'keep', fallback: number, least: number) => {
      const v = options[name] ?? fallback;
      if (typeof v !== 'number' || !(v >= least) || (!Number.isInteger(v) && v !== Infinity)) throw new InvalidOptionError(`${who}: ${name} must be an integer, ${least} or more, got ${String(v)}`);
      return v;
    };
    this.#leaseMs = whole('leaseMs', 2000, 200);
    this.#maxCameras = whole('maxCameras', Infinity, 1);
    this.#keep = whole('keep', 1_000_000, 1);
    this.name = checkFleetName(who, 'name', options.name ?? `${process.env.HOSTNAME ?? 'worker'}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
    this.#ctx = ctx;
    this.#redis = redis;
    this.#keys = fleetKeys(options.prefix);
    this.#onEvent = options.onEvent ?? (() => undefined);
  }

  /** The ids of the cameras it runs now. */
  get cameras(): string[] {
    return [...this.#running.values()].map((r) => r.spec.id);
  }

  /**
   * Builds the chain's GPU pipelines (a few gray frames through it), joins the fleet and takes up cameras; resolves
   * after the first tick. Built first, so that a camera taken up does not drop its first second of frames to them.
   */
  async start(): Promise<void> {
    if (this.#timer) return;
    const blank = { width: 64, height: 48, format: 'gray' as const, data: new Uint8Array(64 * 48) };
    await lastValueFrom(fromPixels(this.#ctx, [blank, blank]).pipe(blobTracking({ maxUnseen: 2, lines: [] }), toArray()));
    await ensureGroup(this.#redis, this.#keys.cameras, workerGroup);
    this.#renewedAt = Date.now();
    await this.#tick();
    this.#timer = setInterval(() => {
      if (!this.#ticking) this.#ticking = this.#tick().finally(() => (this.#ticking = null));
    }, Math.max(50, Math.floor(this.#leaseMs / 4)));
  }

  /** Stops every camera, waits for their results to be written, and hands the cameras over at once. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#ticking;
    const entries = [...this.#running.keys()];
    for (const entry of entries) this.#stopCamera(entry, 'stopping');
    await Promise.all([...this.#running.values()].map((r) => r.writes));
    this.#running.clear();
    await evalScript(this.#redis, releaseScript, [this.#keys.cameras], [workerGroup, this.name, ...entries]).catch(() => undefined);
    await this.#redis.sendCommand(['ZREM', this.#keys.workers, this.name]).catch(() => undefined);
  }

  /** The error that stopped the worker (its GPU device lost), if one did. */
  get failure(): Error | null {
    return this.#failure;
  }

  async #tick(): Promise<void> {
    const { cameras, workers } = this.#keys;
    try {
      const [live, total] = (await evalScript(this.#redis, heartbeatScript, [workers, cameras], [this.name, this.#leaseMs])) as [number, number];
      const lost = (await evalScript(this.#redis, renewScript, [cameras], [workerGroup, this.name, ...this.#running.keys()])) as string[];
      this.#renewedAt = Date.now();
      for (const entry of lost) this.#stopCamera(entry, 'lost');
      const share = Math.min(this.#maxCameras, Math.ceil(Number(total) / Math.max(1, Number(live))));
      let want = share - this.#running.size;
      if (want > 0) {
        const got = (await this.#redis.sendCommand(['XREADGROUP', 'GROUP', workerGroup, this.name, 'COUNT', String(want), 'STREAMS', cameras, '>'])) as [string, [string, string[]][]][] | null;
        for (const [id, flat] of got?.[0]?.[1] ?? []) if (flat) want -= (await this.#startCamera(String(id), flat)) ? 1 : 0;
      }
      // XAUTOCLAIM looks at a bounded stretch of the pending entries a call: go on from its cursor to the end.
      for (let cursor = '0-0'; want > 0; ) {
        const [next, claimed] = (await this.#redis.sendCommand(['XAUTOCLAIM', cameras, workerGroup, this.name, String(this.#leaseMs), cursor, 'COUNT', String(want)])) as [string, [string, string[] | null][]];
        for (const [id, flat] of claimed) if (flat) want -= (await this.#startCamera(String(id), flat)) ? 1 : 0;
        cursor = String(next);
        if (cursor === '0-0') break;
      }
      if (want < 0) {
        const newest = [...this.#running.keys()].slice(want);
        for (const entry of newest) this.#stopCamera(entry, 'handed over');
        await evalScript(this.#redis, releaseScript, [cameras], [workerGroup, this.name, ...newest]);
      }
    } catch {
      // The server is out of reach: past the lease another worker may hold our cameras, so they stop here.
      if (Date.now() - this.#renewedAt > this.#leaseMs) for (const entry of [...this.#running.keys()]) this.#stopCamera(entry, 'lost');
    }
  }

  /** Starts a run of the camera whose entry the worker now holds; false where it could not. */
  async #startCamera(entry: string, flat: string[]): Promise<boolean> {
    if (this.#failure) return false;
    const spec = JSON.parse(entryFields(flat).spec) as CameraSpec;
    let begun: [number, string, string];
    try {
      begun = (await evalScript(this.#redis, beginScript, [this.#keys.cameras, this.#keys.state(spec.id)], [workerGroup, this.name, entry])) as [number, string, string];
    } catch {
      return false;
    }
    const [run, last, counts] = begun;
    const r: Running = { entry, spec, run: Number(run), next: Number(last) + 1, base: JSON.parse(counts), sub: null, writes: Promise.resolve(), waiting: 0, stopped: false };
    this.#running.set(entry, r);
    let camera: ReturnType<typeof fromCameraUrl>;
    let chain: ReturnType<typeof blobTracking>;
    try {
      camera = fromCameraUrl(this.#ctx, spec.url, cameraOptions(spec));
      chain = blobTracking(trackingOptions(spec));
    } catch (e) {
      // A spec stored by other means than addCamera, which checks it.
      this.#stopCamera(entry, 'error', (e as Error).message);
      return false;
    }
    r.sub = camera.pipe(chain).subscribe({
      next: (frame) => {
        if (r.stopped) return;
        const result = cameraResult(frame, { camera: spec.id, seq: r.next++, run: r.run, worker: this.name, dropped: camera.stats.dropped }, r.base);
        if (++r.waiting > maxWaitingWrites) return this.#stopCamera(entry, 'error', 'results are not being written as fast as frames come');
        r.writes = r.writes.then(() => this.#write(r, JSON.stringify(result), JSON.stringify(result.counts), result.seq));
      },
      // A file read without `loop` ends: its results written, the camera is done for good.
      complete: () => void this.#end(r),
      error: (e: Error) => {
        this.#stopCamera(entry, 'error', e.message);
        if (this.#ctx.lostError && !this.#failure) {
          this.#failure = this.#ctx.lostError;
          this.#onEvent({ type: 'failed', message: this.#failure.message });
          void this.stop();
        }
      },
    });
    this.#onEvent({ type: 'started', camera: spec.id, run: r.run });
    return true;
  }

  /** The camera's source ended: once its results are written, its entry is acknowledged and the camera is done. */
  async #end(r: Running): Promise<void> {
    if (r.stopped) return;
    r.stopped = true;
    await r.writes;
    await evalScript(this.#redis, endScript, [this.#keys.cameras], [workerGroup, this.name, r.entry]).catch(() => undefined);
    this.#running.delete(r.entry);
    this.#onEvent({ type: 'stopped', camera: r.spec.id, reason: 'ended' });
  }

  async #write(r: Running, result: string, counts: string, seq: number): Promise<void> {
    try {
      await evalScript(this.#redis, writeScript, [this.#keys.cameras, this.#keys.state(r.spec.id), this.#keys.results], [workerGroup, this.name, r.entry, r.spec.id, seq, r.run, result, counts, this.#keep]);
      r.waiting--;
    } catch (e) {
      r.waiting = 0;
      const message = (e as Error).message;
      // A result not written leaves a gap no later one may fill: the camera stops, and its next run goes on from the last written.
      this.#stopCamera(r.entry, message.startsWith('NOTOWNER') ? 'lost' : 'error', message);
    }
  }

  #stopCamera(entry: string, reason: Extract<FleetWorkerEvent, { type: 'stopped' }>['reason'], message?: string): void {
    const r = this.#running.get(entry);
    if (!r || r.stopped) return;
    r.stopped = true;
    r.sub?.unsubscribe();
    if (reason !== 'stopping') this.#running.delete(entry);
    this.#onEvent({ type: 'stopped', camera: r.spec.id, reason, ...(message ? { message } : {}) });
  }
}
