// Test cameras on localhost, served by real servers the tests start: an HTTP camera (a Node server that streams an
// MPEG-TS file and can cut or stall a connection) and an RTSP camera (Debian's rtsp-server-perl, with ffmpeg
// publishing a clip to it in a loop, as a camera's encoder would).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { readFileSync } from 'node:fs';

/** A TCP port free on localhost now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** What the HTTP camera does with its nth connection (from 0): send the whole file and end, send part and cut, send part and go quiet. */
export type HttpCameraTurn = 'whole' | 'cut' | 'stall';

export interface HttpCamera {
  url: string;
  /** Connections taken so far. */
  connections: number;
  close(): Promise<void>;
}

/**
 * Streams `file` (MPEG-TS) to each client, spread evenly over `spanMs` (its playing time: as a camera sends; a few ms:
 * a burst), as `turn(n)` says for the nth connection.
 */
export async function httpCamera(file: string, turn: (n: number) => HttpCameraTurn, spanMs: number): Promise<HttpCamera> {
  const bytes = readFileSync(file);
  const everyMs = 10;
  const chunk = Math.ceil((bytes.length * everyMs) / Math.max(everyMs, spanMs));
  const open = new Set<ServerResponse>();
  const camera: HttpCamera = { url: '', connections: 0, close: async () => undefined };
  const server = createHttpServer((_req, res) => {
    const mode = turn(camera.connections++);
    open.add(res);
    res.writeHead(200, { 'content-type': 'video/mp2t' });
    const stop = mode === 'whole' ? bytes.length : Math.floor(bytes.length / 2);
    let at = 0;
    const timer = setInterval(() => {
      if (at >= stop) {
        clearInterval(timer);
        if (mode === 'whole') res.end();
        else if (mode === 'cut') res.socket?.destroy();
        return; // 'stall': the connection stays open, silent
      }
      res.write(bytes.subarray(at, Math.min(stop, at + chunk)));
      at += chunk;
    }, everyMs);
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  camera.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/camera.ts`;
  camera.close = () =>
    new Promise<void>((resolve) => {
      for (const r of open) r.socket?.destroy();
      server.close(() => resolve());
    });
  return camera;
}

export interface RtspCamera {
  /** Where a client reads it. */
  url: string;
  /** Stops the server and the publisher: the camera is gone. */
  stop(): Promise<void>;
  /** Starts both again on the same ports: the camera is back. */
  start(): Promise<void>;
}

/** rtsp-server-perl on free ports, ffmpeg publishing `clip` (H.264) to it over and over at its own frame rate. */
export async function rtspCamera(clip: string): Promise<RtspCamera> {
  const clientPort = await freePort();
  const sourcePort = await freePort();
  const rtpPort = 20000 + 2 * Math.floor(Math.random() * 10000);
  let server: ChildProcess | null = null;
  let publisher: ChildProcess | null = null;
  const stopped = (p: ChildProcess | null) => (p && p.exitCode === null && p.signalCode === null ? new Promise<void>((r) => p.once('exit', () => r())) : Promise.resolve());
  const camera: RtspCamera = {
    url: `rtsp://127.0.0.1:${clientPort}/camera`,
    async stop() {
      const both = [stopped(publisher), stopped(server)];
      publisher?.kill('SIGKILL');
      server?.kill('SIGKILL');
      await Promise.all(both);
    },
    async start() {
      server = spawn('rtsp-server-perl', ['--clientport', String(clientPort), '--serverport', String(sourcePort), '--rtp_start_port', String(rtpPort), '--client_listen_address', '127.0.0.1', '--source_listen_address', '127.0.0.1'], { stdio: 'ignore' });
      await waitForPort(sourcePort);
      publisher = spawn('ffmpeg', ['-v', 'error', '-nostdin', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy', '-f', 'rtsp', `rtsp://127.0.0.1:${sourcePort}/camera`], { stdio: 'ignore' });
      await waitForStream(camera.url);
    },
  };
  await camera.start();
  return camera;
}

/** Resolves once something listens on `port` (tries for 10 s). */
async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1');
      c.once('connect', () => {
        c.destroy();
        resolve(true);
      });
      c.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on port ${port}`);
}

/** Resolves once ffprobe finds a video stream at `url` (RTSP over UDP; tries for 10 s): the camera is up. */
async function waitForStream(url: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const up = await new Promise<boolean>((resolve) =>
      execFile('ffprobe', ['-v', 'error', '-rtsp_transport', 'udp', '-select_streams', 'v', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', url], { timeout: 5000 }, (e, out) => resolve(!e && out.includes('h264'))),
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no stream at ${url}`);
}
