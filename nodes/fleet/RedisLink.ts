/**
 * What the fleet needs of a Redis client: a raw command. A node-redis client (`createClient()` from 'redis',
 * connected) is one; the fleet speaks the commands itself, so any client with such a method serves.
 */
export interface RedisLink {
  sendCommand(args: string[]): Promise<unknown>;
}

/** Runs a Lua script (EVAL) with its keys and arguments. */
export function evalScript(redis: RedisLink, script: string, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
  return redis.sendCommand(['EVAL', script, String(keys.length), ...keys, ...args.map(String)]);
}

/**
 * The consumer group `group` on stream `key`, made (with the stream) where missing, reading from entry `from` on ('0':
 * every entry, '$': those added from now on); a group already there is left as it is.
 */
export async function ensureGroup(redis: RedisLink, key: string, group: string, from: '0' | '$' = '0'): Promise<void> {
  try {
    await redis.sendCommand(['XGROUP', 'CREATE', key, group, from, 'MKSTREAM']);
  } catch (e) {
    if (!String((e as Error).message).includes('BUSYGROUP')) throw e;
  }
}

/** A stream entry's fields ([k, v, k, v…] as Redis sends them) as an object. */
export function entryFields(flat: unknown): Record<string, string> {
  const a = flat as string[];
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < a.length; i += 2) out[String(a[i])] = String(a[i + 1]);
  return out;
}
