/**
 * A fleet's cameras, kept in Redis (fleetKeys.ts): `addCamera` checks a camera's spec and stores it, and a worker
 * (FleetWorker) takes it up within its next tick; `removeCamera` ends it (its worker stops it at its next tick);
 * `fleetCameras` lists them with the worker that runs each.
 *
 * @example
 * const redis = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * await addCamera(redis, { id: 'gate-1', url: 'rtsp://10.0.0.21/stream1', tracking: { lines: [{ id: 'in', a: [0, 300], b: [1920, 300] }] } });
 */
import { InvalidOptionError } from '../../src/core/errors.js';
import { checkCameraSpec, type CameraSpec } from './CameraSpec.js';
import { fleetKeys, workerGroup } from './fleetKeys.js';
import { addScript, removeScript } from './fleetScripts.js';
import { ensureGroup, entryFields, evalScript, type RedisLink } from './RedisLink.js';

export interface FleetOptions {
  /** The prefix of the fleet's keys (default 'flowmark'). */
  prefix?: string;
}

export interface FleetCamera {
  spec: CameraSpec;
  /** waiting: no worker has taken it up yet (or it was handed over); running: a worker holds it; ended: its file ended. */
  state: 'waiting' | 'running' | 'ended';
  /** The worker running it, or null while none has taken it. */
  worker: string | null;
  /** Milliseconds since its worker last renewed it (null while none has it). */
  idleMs: number | null;
  /** Results written for it so far. */
  results: number;
}

/** Adds a camera; InvalidOptionError for a bad spec or an id already in the fleet. */
export async function addCamera(redis: RedisLink, spec: CameraSpec, options: FleetOptions = {}): Promise<void> {
  checkCameraSpec(spec);
  const keys = fleetKeys(options.prefix);
  await ensureGroup(redis, keys.cameras, workerGroup);
  try {
    await evalScript(redis, addScript, [keys.cameras, keys.ids], [workerGroup, spec.id, JSON.stringify(spec)]);
  } catch (e) {
    if (String((e as Error).message).startsWith('EXISTS')) throw new InvalidOptionError(`addCamera: camera ${spec.id} is already in the fleet`);
    throw e;
  }
}

/** Removes a camera; false where there was none of that id. */
export async function removeCamera(redis: RedisLink, id: string, options: FleetOptions = {}): Promise<boolean> {
  const keys = fleetKeys(options.prefix);
  return (await evalScript(redis, removeScript, [keys.cameras, keys.ids], [workerGroup, id])) === 1;
}

/** The fleet's cameras in the order they were added. */
export async function fleetCameras(redis: RedisLink, options: FleetOptions = {}): Promise<FleetCamera[]> {
  const keys = fleetKeys(options.prefix);
  await ensureGroup(redis, keys.cameras, workerGroup);
  const entries = (await redis.sendCommand(['XRANGE', keys.cameras, '-', '+'])) as [string, string[]][];
  const pending = (await redis.sendCommand(['XPENDING', keys.cameras, workerGroup, '-', '+', String(Math.max(1, entries.length))])) as [string, string, number, number][];
  const owner = new Map(pending.map(([id, worker, idle]) => [String(id), { worker: String(worker), idleMs: Number(idle) }]));
  // Entries up to the group's last delivered one that are not pending were acknowledged: their cameras ended.
  const groups = (await redis.sendCommand(['XINFO', 'GROUPS', keys.cameras])) as unknown[][];
  const info = groups.map((g) => entryFields(g)).find((g) => g.name === workerGroup);
  const delivered = info?.['last-delivered-id'] ?? '0-0';
  const out: FleetCamera[] = [];
  for (const [id, flat] of entries) {
    const spec = JSON.parse(entryFields(flat).spec) as CameraSpec;
    const seq = await redis.sendCommand(['HGET', keys.state(spec.id), 'seq']);
    const o = owner.get(String(id));
    const state = o ? 'running' : streamIdBefore(delivered, String(id)) ? 'waiting' : 'ended';
    out.push({ spec, state, worker: o?.worker ?? null, idleMs: o?.idleMs ?? null, results: seq == null ? 0 : Number(seq) + 1 });
  }
  return out;
}

/** Whether stream id a comes before b ("ms-seq"). */
function streamIdBefore(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(BigInt);
  const [bm, bs] = b.split('-').map(BigInt);
  return am < bm || (am === bm && as < bs);
}
