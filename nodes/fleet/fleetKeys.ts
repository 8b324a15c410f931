/**
 * The Redis keys of one fleet (all under `prefix`, so that several fleets share a server):
 * - `<prefix>:cameras`: a stream, one entry per camera (its spec as JSON), read by the consumer group `workers`. A camera
 *   is owned by the worker whose pending entry it is; the owner keeps the entry's idle time near 0, and another worker
 *   takes an entry idle for longer than the lease (XAUTOCLAIM). A camera is never acknowledged while it runs.
 * - `<prefix>:camera-ids`: a hash, camera id → its entry's id (one entry per camera id).
 * - `<prefix>:camera:<id>`: a hash, the camera's last written result `seq`, its line `counts` and its `run`.
 * - `<prefix>:results`: a stream of results, capped near `keep` entries.
 * - `<prefix>:workers`: a sorted set, worker name → the server's time (ms) of its last heartbeat.
 */
import { InvalidOptionError } from '../../src/core/errors.js';

export interface FleetKeys {
  cameras: string;
  ids: string;
  state: (camera: string) => string;
  results: string;
  workers: string;
}

/** The consumer group of the cameras stream that every worker reads in. */
export const workerGroup = 'workers';

/** The prefix used where none is given. */
export const defaultFleetPrefix = 'flowmark';

/**
 * A name the fleet keeps in Redis and results carry (a camera's id, a worker's or a reader's name), checked: 1 to 64
 * letters, digits, `.`, `_` or `-`; InvalidOptionError otherwise.
 */
export function checkFleetName(who: string, what: string, value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(value)) throw new InvalidOptionError(`${who}: ${what} must be 1 to 64 letters, digits, '.', '_' or '-', got ${JSON.stringify(value)}`);
  return value;
}

export function fleetKeys(prefix = defaultFleetPrefix): FleetKeys {
  return {
    cameras: `${prefix}:cameras`,
    ids: `${prefix}:camera-ids`,
    state: (camera) => `${prefix}:camera:${camera}`,
    results: `${prefix}:results`,
    workers: `${prefix}:workers`,
  };
}
