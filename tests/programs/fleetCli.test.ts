// `flowmark camera` and `flowmark worker` as a user runs them, against a Redis server the test starts: cameras added,
// listed and removed; bad arguments, URLs and options refused with a clear message before anything is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRedis, type RedisServer } from '../support/redisServer.js';

const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000 });

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

describe('flowmark camera', () => {
  it('adds, lists and removes a fleet camera', () => {
    const at = ['--redis', redis.url, '--prefix', 'cli'];
    const added = run(['camera', 'add', 'door', 'rtsp://10.1.2.3/live', '--line', '0,100,640,100', '--fps', '10', '--size', '640x360', ...at]);
    expect(added.stderr).toBe('');
    expect(added.stdout).toBe('camera door added\n');
    expect(run(['camera', 'add', 'yard', '/videos/yard.mp4', '--loop', '--tracking', '{"minArea":50,"maxUnseen":3}', ...at]).status).toBe(0);
    expect(run(['camera', 'list', ...at]).stdout).toBe('door\trtsp://10.1.2.3/live\t(waiting)\t0 results\nyard\t/videos/yard.mp4\t(waiting)\t0 results\n');
    const twice = run(['camera', 'add', 'door', 'rtsp://10.1.2.3/other', ...at]);
    expect([twice.status, twice.stderr]).toEqual([1, 'flowmark camera: addCamera: camera door is already in the fleet\n']);
    expect(run(['camera', 'remove', 'door', ...at]).stdout).toBe('camera door removed\n');
    expect(run(['camera', 'remove', 'door', ...at]).stderr).toBe('flowmark camera: no camera door in the fleet\n');
    expect(run(['camera', 'list', ...at]).stdout).toBe('yard\t/videos/yard.mp4\t(waiting)\t0 results\n');
  });

  it.each([
    [['camera'], 2, /the action is add, remove or list, got none/],
    [['camera', 'start', 'x'], 2, /the action is add, remove or list, got "start"/],
    [['camera', 'add', 'x'], 2, /takes ID and URL arguments/],
    [['camera', 'add', 'x', 'ftp://h/x'], 1, /ftp:\/\/ is not read/],
    [['camera', 'add', 'x y', 'rtsp://h/x'], 1, /id must be 1 to 64 letters/],
    [['camera', 'add', 'x', 'rtsp://h/x', '--size', '640'], 2, /--size must be WxH/],
    [['camera', 'add', 'x', 'rtsp://h/x', '--fps', '0'], 1, /fps must be a positive number/],
    [['camera', 'add', 'x', 'rtsp://h/x', '--tracking', '{minArea'], 2, /--tracking must be JSON/],
    [['camera', 'add', 'x', 'rtsp://h/x', '--tracking', '{"history":-1}'], 1, /history must be/],
    [['worker', '--lease-ms', '5'], 2, /--lease-ms must be an integer 200\.\./],
  ])('refuses %j', (args, status, message) => {
    const r = run([...args, '--redis', redis.url, '--prefix', 'refused']);
    expect(r.status).toBe(status);
    expect(r.stderr).toMatch(message);
    expect(run(['camera', 'list', '--redis', redis.url, '--prefix', 'refused']).stdout).toBe('');
  });
});
