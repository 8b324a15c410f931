/**
 * What `fromCameraUrl` reads: a network camera's URL (rtsp, rtsps, http, https) or a video file (a path or a file://
 * URL), and the ffmpeg input options that read it. Bad input is an InvalidOptionError, thrown at once.
 */
import { fileURLToPath } from 'node:url';
import { InvalidOptionError } from '../../src/core/errors.js';

export interface CameraInput {
  /** 'network': a dropped connection is retried; 'file': read at its own frame rate, its end is the stream's. */
  kind: 'network' | 'file';
  /** What ffmpeg opens: the URL, or the file's path. */
  target: string;
  scheme: string;
}

export const cameraSchemes = ['rtsp', 'rtsps', 'http', 'https', 'file'];

export function cameraInput(who: string, url: unknown): CameraInput {
  if (typeof url !== 'string' || url.trim() === '') throw new InvalidOptionError(`${who}: the camera must be a URL (rtsp://, http(s)://) or a video file's path, got ${JSON.stringify(url)}`);
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'file', target: url, scheme: 'file' };
  if (!cameraSchemes.includes(scheme)) throw new InvalidOptionError(`${who}: ${scheme}:// is not read; use ${cameraSchemes.map((s) => `${s}://`).join(', ')} or a file's path`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidOptionError(`${who}: ${JSON.stringify(url)} is not a valid URL`);
  }
  if (scheme === 'file') return { kind: 'file', target: fileURLToPath(parsed), scheme };
  if (!parsed.hostname) throw new InvalidOptionError(`${who}: ${JSON.stringify(url)} names no host`);
  return { kind: 'network', target: url, scheme };
}
