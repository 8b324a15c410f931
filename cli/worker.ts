/**
 * `flowmark worker --redis URL`: a fleet worker (FleetWorker) on this machine's GPU, running cameras of the fleet kept
 * in that Redis until SIGINT or SIGTERM, when it hands its cameras over and exits. `flowmark camera add|remove|list`:
 * the fleet's cameras. A line on stderr for each camera started or stopped.
 */
import { createClient } from 'redis';
import { GpuContext } from '../index.js';
import { FleetWorker, addCamera, fleetCameras, removeCamera, type CameraSpec } from '../node.js';
import { UsageError, countingLineArg, integerArg } from './args.js';

export const workerUsage = `Usage: flowmark worker [--redis URL] [--prefix P] [--name NAME] [--lease-ms MS] [--max-cameras N]

Runs cameras of a fleet kept in Redis (streams with a consumer group) on this machine's GPU: each through the
background model, cleanup, blobs and tracks, a result per frame written to the stream <prefix>:results. It takes
up cameras added with "flowmark camera add" up to its share (cameras / live workers), and those of a worker that
stopped renewing them for the lease. Runs until SIGINT or SIGTERM; then it hands its cameras over at once.

Options:
  --redis URL        the Redis server (default redis://127.0.0.1:6379)
  --prefix P         the fleet's key prefix (default flowmark)
  --name NAME        this worker's name in the fleet (default host-pid-random)
  --lease-ms MS      a camera not renewed for this long is taken by another worker (default 2000)
  --max-cameras N    most cameras this worker runs (default: its share)
  --keep N           results the stream keeps, about (default 1000000)
`;

export const cameraUsage = `Usage: flowmark camera add ID URL [--line x1,y1,x2,y2 ...] [--fps F] [--size WxH] [--loop] [--redis URL] [--prefix P]
       flowmark camera remove ID [--redis URL] [--prefix P]
       flowmark camera list [--redis URL] [--prefix P]

The cameras of a fleet kept in Redis (see flowmark worker). URL: rtsp://, rtsps://, http(s):// or a video file.

Options:
  --line x1,y1,x2,y2  a counting line in pixels (repeat for more)
  --fps F             take at most F frames a second
  --size WxH          scale frames to W×H (even numbers)
  --loop              a file read again from its start at its end
  --tracking JSON     blobTracking options as JSON (minArea, history, maxUnseen, sizeFloor, shadows…)
`;

type Values = Record<string, string | boolean | string[] | undefined>;

const redisUrl = (values: Values) => (typeof values.redis === 'string' ? values.redis : 'redis://127.0.0.1:6379');
const prefixOf = (values: Values) => (typeof values.prefix === 'string' ? values.prefix : undefined);

async function connect(values: Values) {
  // RESP2: the fleet reads replies as arrays. No offline queue: a command while the server is away fails at once.
  const client = createClient({ url: redisUrl(values), RESP: 2, disableOfflineQueue: true });
  client.on('error', () => undefined);
  return client.connect();
}

export async function runWorker(values: Values, log = console.error): Promise<number> {
  const leaseMs = integerArg('lease-ms', values['lease-ms'] as string | undefined, 2000, 200, 3_600_000);
  const maxCameras = values['max-cameras'] === undefined ? undefined : integerArg('max-cameras', values['max-cameras'] as string, 0, 1, 1 << 20);
  const keep = integerArg('keep', values.keep as string | undefined, 1_000_000, 1, 2 ** 40);
  const redis = await connect(values);
  const ctx = await GpuContext.create({ label: 'flowmark-worker' });
  let failed: string | null = null;
  const worker = new FleetWorker(ctx, redis, {
    prefix: prefixOf(values),
    name: typeof values.name === 'string' ? values.name : undefined,
    leaseMs,
    maxCameras,
    keep,
    onEvent: (e) => {
      if (e.type === 'started') log(`worker: camera ${e.camera} started (run ${e.run})`);
      else if (e.type === 'stopped') log(`worker: camera ${e.camera} stopped: ${e.reason}${e.message ? `: ${e.message}` : ''}`);
      else {
        failed = e.message;
        log(`worker: failed: ${e.message}`);
        stopping();
      }
    },
  });
  let stopping = () => undefined as void;
  const stopped = new Promise<void>((resolve) => (stopping = resolve));
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => stopping());
  await worker.start();
  log(`worker ${worker.name}: running cameras of ${redisUrl(values)}`);
  await stopped;
  await worker.stop();
  await redis.quit().catch(() => undefined);
  ctx.destroy();
  log(`worker ${worker.name}: stopped`);
  return failed ? 1 : 0;
}

export async function runCamera(values: Values, args: string[], log = console.log): Promise<number> {
  const [action, id, url, ...extra] = args;
  const expect = action === 'add' ? 3 : action === 'remove' ? 2 : action === 'list' ? 1 : -1;
  if (expect < 0) throw new UsageError(`camera: the action is add, remove or list, got ${action === undefined ? 'none' : `"${action}"`}`);
  if (args.length !== expect || extra.length) throw new UsageError(`camera ${action}: takes ${['', 'no', 'ID', 'ID and URL'][expect]}${expect > 1 ? '' : ' more'} arguments`);
  const spec = action === 'add' ? cameraSpec(values, id, url) : null;
  const redis = await connect(values);
  try {
    const prefix = prefixOf(values);
    if (spec) {
      await addCamera(redis, spec, { prefix });
      log(`camera ${id} added`);
    } else if (action === 'remove') {
      if (!(await removeCamera(redis, id, { prefix }))) throw new Error(`no camera ${id} in the fleet`);
      log(`camera ${id} removed`);
    } else {
      // A worker's name, with how long ago it last renewed the camera (a stopped worker's cameras wait to be taken).
      for (const c of await fleetCameras(redis, { prefix })) log(`${c.spec.id}\t${c.spec.url}\t${c.worker ? `${c.worker} (${(c.idleMs! / 1000).toFixed(1)} s ago)` : `(${c.state})`}\t${c.results} results`);
    }
    return 0;
  } finally {
    await redis.quit().catch(() => undefined);
  }
}

function cameraSpec(values: Values, id: string, url: string): CameraSpec {
  const lines = ([] as string[]).concat((values.line as string[] | string | undefined) ?? []).map(countingLineArg);
  let tracking: Record<string, unknown> = {};
  if (typeof values.tracking === 'string') {
    try {
      tracking = JSON.parse(values.tracking);
    } catch {
      throw new UsageError(`--tracking must be JSON, got "${values.tracking}"`);
    }
  }
  const size = typeof values.size === 'string' ? /^(\d+)x(\d+)$/.exec(values.size) : null;
  if (values.size !== undefined && !size) throw new UsageError(`--size must be WxH, got "${values.size}"`);
  const fps = values.fps === undefined ? undefined : Number(values.fps);
  const camera = { ...(fps === undefined ? {} : { fps }), ...(size ? { size: [Number(size[1]), Number(size[2])] as [number, number] } : {}), ...(values.loop ? { loop: true } : {}) };
  return { id, url, camera, tracking: { ...tracking, ...(lines.length ? { lines } : {}) } };
}
