/**
 * The fleet's Lua scripts: each runs atomically on the server, so that ownership is checked and acted on in one step.
 * A camera belongs to the consumer its cameras-stream entry is pending for (fleetKeys.ts); a worker that is no longer
 * that consumer (its cameras taken while it stalled) can neither renew nor write.
 */

/** Whether ARGV[2] (the worker) holds entry `id` of KEYS[1] in group ARGV[1]: pending for it, and not removed. */
const owns = `
local function owns(id)
  local p = redis.call('XPENDING', KEYS[1], ARGV[1], id, id, 1)
  return #p == 1 and p[1][2] == ARGV[2] and #redis.call('XRANGE', KEYS[1], id, id) == 1
end
`;

/** KEYS: cameras, ids. ARGV: group, camera id, spec JSON. The new entry's id; EXISTS where the id is taken. */
export const addScript = `
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return redis.error_reply('EXISTS camera ' .. ARGV[2] .. ' is already in the fleet') end
local id = redis.call('XADD', KEYS[1], '*', 'camera', ARGV[2], 'spec', ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], id)
return id
`;

/**
 * KEYS: cameras, ids. ARGV: group, camera id. 1 where the camera was there. Its state (last seq, counts) stays, so that
 * a camera added again under the id continues its sequence.
 */
export const removeScript = `
local id = redis.call('HGET', KEYS[2], ARGV[2])
if not id then return 0 end
redis.call('XACK', KEYS[1], ARGV[1], id)
redis.call('XDEL', KEYS[1], id)
redis.call('HDEL', KEYS[2], ARGV[2])
return 1
`;

/** KEYS: workers, cameras. ARGV: worker, lease ms. Marks the worker alive; { live workers, cameras }. */
export const heartbeatScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
return { redis.call('ZCARD', KEYS[1]), redis.call('XLEN', KEYS[2]) }
`;

/** KEYS: cameras. ARGV: group, worker, entry ids. Resets the idle time of those still the worker's; returns the others. */
export const renewScript = `${owns}
local lost = {}
for i = 3, #ARGV do
  if owns(ARGV[i]) then redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[i], 'JUSTID')
  else table.insert(lost, ARGV[i]) end
end
return lost
`;

/**
 * KEYS: cameras. ARGV: group, worker, entry ids. Those still the worker's are marked long idle, so that the next worker
 * to look takes them at once (a worker that stops hands its cameras over without waiting out the lease).
 */
export const releaseScript = `${owns}
for i = 3, #ARGV do
  if owns(ARGV[i]) then redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[i], 'IDLE', 1000000000000, 'JUSTID') end
end
return 0
`;

/** KEYS: cameras, camera state. ARGV: group, worker, entry id. Starts a run of the camera: { run, last seq, counts JSON }. */
export const beginScript = `${owns}
if not owns(ARGV[3]) then return redis.error_reply('NOTOWNER the camera is another worker\\'s') end
local run = redis.call('HINCRBY', KEYS[2], 'run', 1)
return { run, redis.call('HGET', KEYS[2], 'seq') or '-1', redis.call('HGET', KEYS[2], 'counts') or '{}' }
`;

/**
 * KEYS: cameras, camera state, results. ARGV: group, worker, entry id, camera id, seq, run, result JSON, counts JSON,
 * results to keep. Appends the result only where the worker still owns the camera, the run is the camera's latest, and
 * seq follows the last written: a result is written once, and sequences have no gap.
 */
export const writeScript = `${owns}
if not owns(ARGV[3]) or redis.call('HGET', KEYS[2], 'run') ~= ARGV[6] then return redis.error_reply('NOTOWNER the camera is another worker\\'s') end
local last = tonumber(redis.call('HGET', KEYS[2], 'seq') or '-1')
if tonumber(ARGV[5]) ~= last + 1 then return redis.error_reply('SEQ result ' .. ARGV[5] .. ' does not follow ' .. last) end
redis.call('HSET', KEYS[2], 'seq', ARGV[5], 'counts', ARGV[8])
return redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[9], '*', 'camera', ARGV[4], 'seq', ARGV[5], 'result', ARGV[7])
`;

/** KEYS: cameras. ARGV: group, worker, entry id. Acknowledges the entry where it is the worker's: the camera ended, no worker takes it again. */
export const endScript = `${owns}
if owns(ARGV[3]) then return redis.call('XACK', KEYS[1], ARGV[1], ARGV[3]) end
return 0
`;
