// The pieces behind fromCameraUrl that need no ffmpeg: the PAM splitter over chunks cut anywhere, the newest-wins
// mailbox, and which URLs are cameras.
import { describe, expect, it } from 'vitest';
import { PamReader, type PamFrame } from '../../../nodes/sources/PamReader.js';
import { Newest } from '../../../nodes/sources/Newest.js';
import { cameraInput } from '../../../nodes/sources/cameraInput.js';
import { InvalidOptionError } from '../../../src/core/errors.js';

/** A PAM image as ffmpeg writes it, its pixels seeded from `seed`. */
function pam(width: number, height: number, depth: 1 | 4, seed: number): { bytes: Buffer; data: Uint8Array } {
  const data = Uint8Array.from({ length: width * height * depth }, (_, i) => (i * 31 + seed * 17) & 255);
  const head = `P7\nWIDTH ${width}\nHEIGHT ${height}\nDEPTH ${depth}\nMAXVAL 255\nTUPLTYPE ${depth === 4 ? 'RGB_ALPHA' : 'GRAYSCALE'}\nENDHDR\n`;
  return { bytes: Buffer.concat([Buffer.from(head, 'latin1'), data]), data };
}

describe('PamReader', () => {
  it('gives every frame whole, whatever the chunks, including a change of size mid-stream', () => {
    const images = [pam(7, 5, 1, 1), pam(7, 5, 1, 2), pam(3, 9, 4, 3), pam(1, 1, 1, 4)];
    const stream = Buffer.concat(images.map((i) => i.bytes));
    for (const cut of [1, 2, 3, 7, 13, 64, 255, 256, 257, stream.length]) {
      const reader = new PamReader();
      const got: PamFrame[] = [];
      for (let at = 0; at < stream.length; at += cut) reader.push(stream.subarray(at, at + cut), (f) => got.push(f));
      expect(got.map((f) => [f.width, f.height, f.depth]), `chunks of ${cut}`).toEqual([[7, 5, 1], [7, 5, 1], [3, 9, 4], [1, 1, 1]]);
      got.forEach((f, i) => expect(Buffer.from(f.data).equals(Buffer.from(images[i].data)), `chunks of ${cut}, frame ${i}`).toBe(true));
    }
  });

  it('throws on what is not PAM, or PAM it cannot hand on', () => {
    expect(() => new PamReader().push(Buffer.alloc(300, 65), () => undefined)).toThrow(/no header end/);
    expect(() => new PamReader().push(Buffer.from('P6\n3 2\n255\nENDHDR\n'), () => undefined)).toThrow(/no P7/);
    expect(() => new PamReader().push(Buffer.from('P7\nWIDTH 2\nHEIGHT 2\nDEPTH 3\nMAXVAL 255\nENDHDR\n'), () => undefined)).toThrow(/depth 3/);
    expect(() => new PamReader().push(Buffer.from('P7\nWIDTH 0\nHEIGHT 2\nDEPTH 1\nMAXVAL 255\nENDHDR\n'), () => undefined)).toThrow(/WIDTH/);
  });
});

describe('Newest', () => {
  it('hands a waiting consumer the frame at once, holds only the newest otherwise, and counts the replaced', async () => {
    const dropped: number[] = [];
    const box = new Newest<number>((n) => dropped.push(n));
    const waiting = box.next();
    box.put(1);
    expect(await waiting).toEqual({ value: 1, done: false });
    for (const n of [2, 3, 4]) box.put(n);
    expect(await box.next()).toEqual({ value: 4, done: false });
    expect(dropped).toEqual([2, 3]);
    box.put(5);
    box.end();
    box.put(6);
    expect(await box.next()).toEqual({ value: 5, done: false });
    expect(await box.next()).toEqual({ value: undefined, done: true });
  });

  it('fails after the frame it holds when ended with an error; a waiting consumer fails at once', async () => {
    const box = new Newest<number>();
    box.put(7);
    box.end(new Error('gone'));
    expect(await box.next()).toEqual({ value: 7, done: false });
    await expect(box.next()).rejects.toThrow('gone');
    const other = new Newest<number>();
    const waiting = other.next();
    other.end(new Error('gone too'));
    await expect(waiting).rejects.toThrow('gone too');
  });
});

describe('cameraInput', () => {
  it('takes network cameras and files, and refuses the rest with the reason', () => {
    expect(cameraInput('t', 'rtsp://user:pw@10.0.0.5:554/stream1')).toEqual({ kind: 'network', target: 'rtsp://user:pw@10.0.0.5:554/stream1', scheme: 'rtsp' });
    expect(cameraInput('t', 'HTTPS://cam.local/live.ts').kind).toBe('network');
    expect(cameraInput('t', 'clips/a b.mp4')).toEqual({ kind: 'file', target: 'clips/a b.mp4', scheme: 'file' });
    expect(cameraInput('t', 'file:///tmp/a%20b.mp4')).toEqual({ kind: 'file', target: '/tmp/a b.mp4', scheme: 'file' });
    expect(() => cameraInput('t', 'udp://1.2.3.4:5')).toThrow(/udp:\/\/ is not read/);
    expect(() => cameraInput('t', 'rtsp://')).toThrow(InvalidOptionError);
    expect(() => cameraInput('t', 'http://:80/x')).toThrow(InvalidOptionError);
    expect(() => cameraInput('t', ' ')).toThrow(/must be a URL/);
  });
});
