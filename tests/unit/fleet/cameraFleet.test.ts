// A fleet's cameras in a real Redis server the test starts: specs checked when added (clear errors, nothing stored),
// one entry per id, listing and removal; a worker's options checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionError, type GpuContext } from '../../../index.js';
import { FleetWorker, addCamera, checkCameraSpec, fleetCameras, fleetResults, removeCamera, type CameraSpec, type RedisLink } from '../../../node.js';
import { startRedis, type RedisServer } from '../../support/redisServer.js';

let redis: RedisServer;
let client: RedisLink;
beforeAll(async () => {
  redis = await startRedis();
  client = await redis.client();
});
afterAll(() => redis?.stop());

const good: CameraSpec = { id: 'gate-1', url: 'rtsp://10.0.0.21:554/stream1', camera: { fps: 15 }, tracking: { lines: [{ id: 'in', a: [0, 300], b: [1920, 300] }], minArea: 40 } };

describe('camera specs', () => {
  it.each([
    ['an id with a space', { ...good, id: 'gate 1' }, /id must be/],
    ['an id too long', { ...good, id: 'x'.repeat(65) }, /id must be/],
    ['another scheme', { ...good, url: 'ftp://10.0.0.21/x' }, /ftp:\/\/ is not read/],
    ['no host', { ...good, url: 'rtsp:///stream' }, /host/],
    ['an unknown field', { ...good, colour: true }, /colour/],
    ['a camera option it does not take', { ...good, camera: { format: 'rgba' } }, /format/],
    ['a bad frame rate', { ...good, camera: { fps: -1 } }, /fps must be a positive number/],
    ['a bad size', { ...good, camera: { size: [641, 480] } }, /size must be/],
    ['a bad history', { ...good, tracking: { history: 0 } }, /history must be/],
    ['a bad opening', { ...good, tracking: { open: 4 } }, /open/],
    ['a bad line', { ...good, tracking: { lines: [{ id: 'x', a: [0, 0], b: [0, 0] }] } }, /line/],
  ])('refuses %s', async (_, spec, message) => {
    expect(() => checkCameraSpec(spec as CameraSpec)).toThrow(InvalidOptionError);
    expect(() => checkCameraSpec(spec as CameraSpec)).toThrow(message);
    await expect(addCamera(client, spec as CameraSpec, { prefix: 'refused' })).rejects.toThrow(InvalidOptionError);
    expect(await fleetCameras(client, { prefix: 'refused' })).toEqual([]);
  });

  it('adds, lists and removes cameras, one per id', async () => {
    const prefix = 'listed';
    await addCamera(client, good, { prefix });
    await addCamera(client, { id: 'gate-2', url: '/videos/gate-2.mp4', camera: { loop: true } }, { prefix });
    await expect(addCamera(client, { ...good, url: 'rtsp://10.0.0.99/other' }, { prefix })).rejects.toThrow(/gate-1 is already in the fleet/);
    const listed = await fleetCameras(client, { prefix });
    expect(listed).toEqual([
      { spec: good, state: 'waiting', worker: null, idleMs: null, results: 0 },
      { spec: { id: 'gate-2', url: '/videos/gate-2.mp4', camera: { loop: true } }, state: 'waiting', worker: null, idleMs: null, results: 0 },
    ]);
    expect(await removeCamera(client, 'gate-1', { prefix })).toBe(true);
    expect(await removeCamera(client, 'gate-1', { prefix })).toBe(false);
    expect((await fleetCameras(client, { prefix })).map((c) => c.spec.id)).toEqual(['gate-2']);
    // The id is free again.
    await addCamera(client, good, { prefix });
    expect((await fleetCameras(client, { prefix })).map((c) => c.spec.id)).toEqual(['gate-2', 'gate-1']);
  });
});

describe('FleetWorker options', () => {
  const ctx = {} as GpuContext;
  it.each([
    [{ leaseMs: 10 }, /leaseMs must be an integer, 200 or more/],
    [{ maxCameras: 0 }, /maxCameras must be an integer, 1 or more/],
    [{ keep: 1.5 }, /keep must be an integer/],
    [{ name: 'a b' }, /name must be/],
    [{ lease: 2000 }, /lease/],
  ])('refuses %j', (options, message) => {
    expect(() => new FleetWorker(ctx, client, options as object)).toThrow(InvalidOptionError);
    expect(() => new FleetWorker(ctx, client, options as object)).toThrow(message);
  });
});

describe('fleetResults', () => {
  const prefix = 'read';
  const result = (camera: string, seq: number) => ({ camera, seq, run: 1, worker: 'w', timeUs: seq * 1000, at: 0, width: 8, height: 8, tracks: [], counts: {}, events: [], dropped: 0 });
  const write = async (camera: string, seq: number) => {
    await client.sendCommand(['XADD', `${prefix}:results`, '*', 'camera', camera, 'seq', String(seq), 'result', JSON.stringify(result(camera, seq))]);
  };
  async function take(options: Parameters<typeof fleetResults>[1], n: number) {
    const got: string[] = [];
    for await (const r of fleetResults(client, { prefix, blockMs: 50, ...options })) {
      got.push(`${r.camera}:${r.seq}`);
      if (got.length === n) break;
    }
    return got;
  }

  it('gives each result once to a group, again to a reader restarted before it finished, and all to another group', async () => {
    for (let i = 0; i < 3; i++) await write('a', i);
    expect(await take({ group: 'g', consumer: 'r1', from: '0' }, 2)).toEqual(['a:0', 'a:1']);
    await write('a', 3);
    // r1 left its loop at a:1: unfinished, it comes again, then what is new.
    expect(await take({ group: 'g', consumer: 'r1' }, 3)).toEqual(['a:1', 'a:2', 'a:3']);
    // Another reader of the group gets only what no reader of it has had.
    await write('b', 0);
    expect(await take({ group: 'g', consumer: 'r2' }, 1)).toEqual(['b:0']);
    // Another group gets everything from the start, or only what comes after it joined.
    expect(await take({ group: 'h', consumer: 'x', from: '0' }, 5)).toEqual(['a:0', 'a:1', 'a:2', 'a:3', 'b:0']);
    const late = take({ group: 'k', consumer: 'x' }, 1);
    await new Promise((r) => setTimeout(r, 100));
    await write('b', 1);
    expect(await late).toEqual(['b:1']);
  });

  it.each([
    [{ group: 'a b', consumer: 'x' }, /group must be/],
    [{ group: 'g', consumer: '' }, /consumer must be/],
    [{ group: 'g', consumer: 'x', from: 'now' }, /from must be/],
    [{ group: 'g', consumer: 'x', blockMs: 0 }, /blockMs must be an integer, 1 or more/],
    [{ group: 'g', consumer: 'x', limit: 3 }, /limit/],
  ])('refuses %j', async (options, message) => {
    await expect(fleetResults(client, options as Parameters<typeof fleetResults>[1]).next()).rejects.toThrow(message);
  });
});
