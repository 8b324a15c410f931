/**
 * A fleet's results as a reader takes them: `fleetResults(redis, { group, consumer })` yields each CameraResult of
 * `<prefix>:results` once to the readers of one consumer group, and acknowledges a result when the loop asks for the
 * next, so that a reader that dies part way gets again, when it starts again under its name, what it had not
 * finished (at least once; a result the loop was left at with `break` comes again too). Readers of other groups
 * each get every result.
 *
 * @example
 * for await (const r of fleetResults(redis, { group: 'counts', consumer: 'dashboard-1' })) {
 *   console.log(r.camera, r.seq, r.counts);
 * }
 */
import { InvalidOptionError } from '../../src/core/errors.js';
import { checkOptions, optionKeys } from '../../src/core/checkOptions.js';
import { parseCameraResult, type CameraResult } from './CameraResult.js';
import { checkFleetName, fleetKeys } from './fleetKeys.js';
import { ensureGroup, type RedisLink } from './RedisLink.js';

export interface FleetResultsOptions {
  /** The readers' consumer group: each group gets every result, once among its readers. */
  group: string;
  /** This reader's name in its group: a reader started again under it gets what it had not finished. */
  consumer: string;
  /** The fleet's key prefix (default 'flowmark'). */
  prefix?: string;
  /** Where a new group starts: '$' the results written from now on (default), '0' every result the stream still keeps. */
  from?: '$' | '0';
  /** How long one read waits for new results (ms, default 1000); the loop goes on until it is left. */
  blockMs?: number;
  /** Results read at a time (default 100). */
  count?: number;
}

const keys = optionKeys<FleetResultsOptions>({ group: true, consumer: true, prefix: true, from: true, blockMs: true, count: true });

export async function* fleetResults(redis: RedisLink, options: FleetResultsOptions): AsyncGenerator<CameraResult, void, undefined> {
  const who = 'fleetResults';
  checkOptions(who, options, keys);
  for (const k of ['group', 'consumer'] as const) checkFleetName(who, k, options[k]);
  const from = options.from ?? '$';
  if (from !== '$' && from !== '0') throw new InvalidOptionError(`${who}: from must be '$' or '0', got ${JSON.stringify(from)}`);
  const blockMs = options.blockMs ?? 1000;
  const count = options.count ?? 100;
  for (const [k, v, least] of [['blockMs', blockMs, 1], ['count', count, 1]] as const) {
    if (!Number.isInteger(v) || v < least) throw new InvalidOptionError(`${who}: ${k} must be an integer, ${least} or more, got ${String(v)}`);
  }
  const stream = fleetKeys(options.prefix).results;
  await ensureGroup(redis, stream, options.group, from);
  // First what this reader was given and had not finished ('0': its own pending entries), then new results ('>').
  let cursor = '0';
  for (;;) {
    const reply = (await redis.sendCommand(['XREADGROUP', 'GROUP', options.group, options.consumer, 'COUNT', String(count), ...(cursor === '>' ? ['BLOCK', String(blockMs)] : []), 'STREAMS', stream, cursor])) as [string, [string, unknown[] | null][]][] | null;
    const entries = reply?.[0]?.[1] ?? [];
    if (cursor !== '>' && entries.length === 0) cursor = '>';
    for (const [id, fields] of entries) {
      // An entry trimmed from the stream while pending comes back without fields: nothing to give.
      if (fields) yield parseCameraResult(fields);
      await redis.sendCommand(['XACK', stream, options.group, String(id)]);
      if (cursor !== '>') cursor = String(id);
    }
  }
}
