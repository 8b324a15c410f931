// A Redis server for the fleet tests and bench/chains/fleet.ts: Debian's redis-server on a free localhost port, nothing written to disk,
// stopped by the test.
import { spawn } from 'node:child_process';
import { createClient } from 'redis';
import { connect } from 'node:net';
import { freePort } from './cameras.js';
import type { RedisLink } from '../../node.js';

export interface RedisServer {
  url: string;
  /** A connected client (RESP2, as the fleet reads replies), closed by stop(). */
  client(): Promise<RedisLink>;
  stop(): Promise<void>;
}

/** `executable`: the redis-server to start (default the one on the PATH). */
export async function startRedis(executable = 'redis-server'): Promise<RedisServer> {
  const port = await freePort();
  const server = spawn(executable, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  const clients: { isOpen: boolean; quit(): Promise<unknown> }[] = [];
  const client = async (): Promise<RedisLink> => {
    const c = createClient({ url, RESP: 2 });
    c.on('error', () => undefined);
    clients.push(c);
    return c.connect();
  };
  for (let i = 0; !(await accepts(port)); i++) {
    if (i > 100 || server.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    client,
    async stop() {
      await Promise.all(clients.map((c) => (c.isOpen ? c.quit().catch(() => undefined) : undefined)));
      server.kill('SIGTERM');
      await exited;
    },
  };
}

/** Whether something listens on the localhost port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
