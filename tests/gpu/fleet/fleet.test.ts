// The fleet on a real Redis server the test starts: three `flowmark worker` processes share twelve synthetic cameras
// (seeded scenes read as looping files); one is killed mid-run and its cameras go on elsewhere within 5 s; every
// camera's results run 0, 1, 2… with no gap or repeat, and each run's equal to one process's over the same frames.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { blobTracking, fromPixels, seenTracks, type GpuContext, type PixelImage } from '../../../index.js';
import { FleetWorker, addCamera, fleetCameras, removeCamera, parseCameraResult, readVideoFrames, type CameraResult, type CameraSpec } from '../../../node.js';
import { surveillanceScene } from '../../../reference.js';
import { testContext } from '../../support/gpu.js';
import { encodeScene } from '../../support/trackClips.js';
import { startRedis, type RedisServer } from '../../support/redisServer.js';

const cli = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
const clips = 6;
const fps = 5;
const leaseMs = 1500;

let ctx: GpuContext;
let dir: string;
let redis: RedisServer;

beforeAll(async () => {
  ctx = await testContext();
  dir = mkdtempSync(join(tmpdir(), 'flowmark-fleet-'));
  for (let k = 0; k < clips; k++) {
    const scene = surveillanceScene(300 + k, { width: 160, height: 120, frames: 80, objects: 2, size: [16, 24], speed: [1.5, 2.5], pillars: 0, shadows: false, stopAndGo: 0, noise: 3 });
    encodeScene(dir, scene, `scene${k}`, fps);
  }
  redis = await startRedis();
}, 60_000);
afterAll(async () => {
  await redis?.stop();
  ctx?.destroy();
});

interface Worker {
  name: string;
  process: ChildProcess;
  log: string;
  exited: Promise<number | null>;
}

function startWorker(name: string, prefix = 'flowmark'): Worker {
  const p = spawn(process.execPath, [cli, 'worker', '--redis', redis.url, '--prefix', prefix, '--name', name, '--lease-ms', String(leaseMs)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const w: Worker = { name, process: p, log: '', exited: new Promise((resolve) => p.once('exit', (code) => resolve(code))) };
  p.stderr!.on('data', (d) => (w.log += String(d)));
  return w;
}

async function allResults(): Promise<CameraResult[]> {
  const c = await redis.client();
  const entries = (await c.sendCommand(['XRANGE', 'flowmark:results', '-', '+'])) as [string, string[]][];
  return entries.map(([, fields]) => parseCameraResult(fields));
}

async function until(what: string, test: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One process's results for the clip's frames 0, 1, 2… (looping) at the run's frame times. */
async function singleProcess(spec: CameraSpec, frames: PixelImage[], times: number[]) {
  const images = times.map((timeUs, i) => ({ ...frames[i % frames.length], timeUs }));
  const out = await lastValueFrom(fromPixels(ctx, images).pipe(blobTracking({ maxUnseen: 2, lines: [], ...spec.tracking }), toArray()));
  return out.map((r) => ({ tracks: seenTracks(r), events: r.tracks!.events, counts: r.tracks!.counts }));
}

describe('fleet', () => {
  it('three workers run twelve cameras; one killed, its cameras go on within 5 s, nothing lost or repeated, tracks as one process', async () => {
    const workers = ['w1', 'w2', 'w3'].map((n) => startWorker(n));
    const client = await redis.client();
    try {
      await until('three workers alive', async () => Number(await client.sendCommand(['ZCARD', 'flowmark:workers'])) === 3, 30_000);
      const specs: CameraSpec[] = Array.from({ length: 12 }, (_, i) => ({
        id: `cam-${i}`,
        url: join(dir, `scene${i % clips}.mp4`),
        camera: { loop: true },
        tracking: { lines: [{ id: 'middle', a: [80, 0], b: [80, 119] }], minArea: 8, history: 100 + 10 * i },
      }));
      for (const s of specs) await addCamera(client, s);
      const perCamera = async (least: number) => {
        const n = new Map<string, number>();
        for (const r of await allResults()) n.set(r.camera, (n.get(r.camera) ?? 0) + 1);
        return specs.every((s) => (n.get(s.id) ?? 0) >= least);
      };
      await until('every camera 15 results', () => perCamera(15), 40_000);
      const before = await allResults();
      const ownerOf = new Map(before.map((r) => [r.camera, r.worker]));
      // Shared out evenly (each worker's share: 12 / 3), and listed so.
      const held = (w: string) => specs.filter((s) => ownerOf.get(s.id) === w).map((s) => s.id);
      expect(['w1', 'w2', 'w3'].map((w) => held(w).length)).toEqual([4, 4, 4]);
      const listed = await fleetCameras(client);
      expect(listed.map((c) => [c.spec.id, c.state, c.worker])).toEqual(specs.map((s) => [s.id, 'running', ownerOf.get(s.id)]));
      const victims = held('w2');
      const killedAt = Date.now();
      workers[1].process.kill('SIGKILL');
      await workers[1].exited;
      const after = async () => {
        const rs = (await allResults()).filter((r) => r.at > killedAt + 1000);
        return specs.every((s) => rs.filter((r) => r.camera === s.id).length >= 10);
      };
      await until('every camera 10 results more after the kill', after, 30_000);
      for (const w of [workers[0], workers[2]]) w.process.kill('SIGTERM');
      expect(await workers[0].exited).toBe(0);
      expect(await workers[2].exited).toBe(0);

      const results = await allResults();
      for (const s of specs) {
        const mine = results.filter((r) => r.camera === s.id);
        // Written once each, in order, with no gap.
        expect(mine.map((r) => r.seq)).toEqual(mine.map((_, i) => i));
        expect(mine.some((r) => r.worker === 'w2' && r.at > killedAt + 100)).toBe(false);
        if (victims.includes(s.id)) {
          const next = mine.find((r) => r.worker !== 'w2' && r.at > killedAt)!;
          expect(next, `${s.id} taken over`).toBeDefined();
          expect(next.at - killedAt, `${s.id}: results again`).toBeLessThan(5000);
          expect(next.run).toBeGreaterThan(1);
        }
      }
      // Each run against one process over the same frames at the same times.
      const frames = new Map<string, PixelImage[]>();
      for (const s of specs) {
        if (!frames.has(s.url)) {
          const f: PixelImage[] = [];
          for await (const img of readVideoFrames(s.url)) f.push(img);
          frames.set(s.url, f);
        }
        const mine = results.filter((r) => r.camera === s.id);
        for (const run of new Set(mine.map((r) => r.run))) {
          const rs = mine.filter((r) => r.run === run);
          expect(rs.map((r) => r.dropped), `${s.id} run ${run}: no frame dropped`).toEqual(rs.map(() => 0));
          const one = await singleProcess(s, frames.get(s.url)!, rs.map((r) => r.timeUs));
          // Counts go on from the camera's last result before the run.
          const base = mine[rs[0].seq - 1]?.counts.middle ?? { forward: 0, backward: 0 };
          rs.forEach((r, i) => {
            const m = one[i].counts.middle;
            expect({ tracks: r.tracks, events: r.events, counts: r.counts }, `${s.id} run ${run} result ${i}`).toEqual({ tracks: one[i].tracks, events: one[i].events, counts: { middle: { forward: base.forward + m.forward, backward: base.backward + m.backward } } });
          });
        }
      }
    } finally {
      for (const w of workers) if (w.process.exitCode === null) w.process.kill('SIGKILL');
    }
  }, 110_000);

  it('a worker that stalls past its lease loses its cameras and writes nothing for them; a removed camera stops', async () => {
    const prefix = 'stall';
    const workers = ['s1', 's2'].map((n) => startWorker(n, prefix));
    const client = await redis.client();
    const results = async () => ((await client.sendCommand(['XRANGE', `${prefix}:results`, '-', '+'])) as [string, string[]][]).map(([, f]) => parseCameraResult(f));
    try {
      await until('two workers alive', async () => Number(await client.sendCommand(['ZCARD', `${prefix}:workers`])) === 2, 30_000);
      const ids = ['a', 'b', 'c', 'd'];
      for (const id of ids) await addCamera(client, { id, url: join(dir, 'scene0.mp4'), camera: { loop: true } }, { prefix });
      await until('both workers writing', async () => new Set((await results()).map((r) => r.worker)).size === 2, 30_000);
      const stalled = workers[1];
      const theirs = [...new Set((await results()).filter((r) => r.worker === 's2').map((r) => r.camera))];
      stalled.process.kill('SIGSTOP');
      const stoppedAt = Date.now();
      await new Promise((r) => setTimeout(r, 3 * leaseMs));
      stalled.process.kill('SIGCONT');
      const resumedAt = Date.now();
      // Taken over while it stood still.
      for (const c of theirs) expect((await results()).some((r) => r.camera === c && r.worker === 's1' && r.at > stoppedAt)).toBe(true);
      await until('the stalled worker saw its cameras lost', async () => stalled.log.includes('stopped: lost'), 10_000);
      // Back in the fleet, it takes its share again (new runs).
      await until('both workers writing again', async () => new Set((await results()).filter((r) => r.at > resumedAt + 500).map((r) => r.worker)).size === 2, 30_000);
      expect(await removeCamera(client, 'a', { prefix })).toBe(true);
      const removedAt = Date.now();
      await new Promise((r) => setTimeout(r, leaseMs));
      for (const w of workers) w.process.kill('SIGTERM');
      for (const w of workers) expect(await w.exited).toBe(0);
      const all = await results();
      for (const id of ids) {
        const mine = all.filter((r) => r.camera === id);
        expect(mine.map((r) => r.seq)).toEqual(mine.map((_, i) => i));
        // Runs only ever grow: nothing from a run after a later one began.
        expect(mine.map((r) => r.run)).toEqual([...mine.map((r) => r.run)].sort((x, y) => x - y));
      }
      // Results of a run of the stalled worker's that a takeover ended: none written after that takeover's first.
      for (const c of theirs) {
        const mine = all.filter((r) => r.camera === c);
        const taken = mine.find((r) => r.worker === 's1' && r.at > stoppedAt)!;
        expect(mine.filter((r) => r.run < taken.run && r.seq > taken.seq)).toEqual([]);
      }
      expect(all.filter((r) => r.camera === 'a' && r.at > removedAt + leaseMs / 2)).toEqual([]);
    } finally {
      for (const w of workers) if (w.process.exitCode === null) w.process.kill('SIGKILL');
    }
  }, 110_000);

  it("takes a dead worker's cameras from deep in the pending list", async () => {
    const prefix = 'deep';
    const client = await redis.client();
    const stream = `${prefix}:cameras`;
    for (let i = 0; i < 40; i++) await addCamera(client, { id: `d${i}`, url: join(dir, 'scene0.mp4'), camera: { loop: true } }, { prefix });
    // Cameras 0–29 held by a live worker (just renewed), 30–39 by one that died long ago.
    await client.sendCommand(['XREADGROUP', 'GROUP', 'workers', 'alive', 'COUNT', '30', 'STREAMS', stream, '>']);
    await client.sendCommand(['XREADGROUP', 'GROUP', 'workers', 'dead', 'COUNT', '10', 'STREAMS', stream, '>']);
    const dead = ((await client.sendCommand(['XPENDING', stream, 'workers', '-', '+', '10', 'dead'])) as [string][]).map(([id]) => id);
    for (const id of dead) await client.sendCommand(['XCLAIM', stream, 'workers', 'dead', '0', id, 'IDLE', '100000', 'JUSTID']);
    const started: string[] = [];
    const worker = new FleetWorker(ctx, client, { prefix, leaseMs: 5000, maxCameras: 2, onEvent: (e) => e.type === 'started' && started.push(e.camera) });
    await worker.start();
    try {
      // Its first tick scans past the 30 live entries (XAUTOCLAIM looks at ten times its count a call).
      expect(started.sort()).toEqual(['d30', 'd31']);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});
