// Progress on a terminal is a bar redrawn in place; in a log (not a terminal) a plain line at most every ten seconds.
import { describe, expect, it } from 'vitest';
import { progressBar } from '../../../cli/outputs.js';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { out: { isTTY, write: (t: string) => written.push(t) }, written };
}

describe('progressBar', () => {
  it('writes a line every ten seconds to a log, with the rate frames are processed at', () => {
    let t = 0;
    const { out, written } = stream(false);
    const bar = progressBar('clip', () => 1000, out, () => t);
    for (let n = 1; n <= 900; n++) {
      t = n * 50; // 20 frames a second
      bar.update(n);
    }
    bar.end();
    // 45 s: lines at 10, 20, 30 and 40 s, each a whole line.
    expect(written).toEqual(['clip: 200/1000 frames, processed at 20 frames/s\n', 'clip: 400/1000 frames, processed at 20 frames/s\n', 'clip: 600/1000 frames, processed at 20 frames/s\n', 'clip: 800/1000 frames, processed at 20 frames/s\n']);
  });

  it('redraws a bar on a terminal and ends its line', () => {
    let t = 0;
    const { out, written } = stream(true);
    const bar = progressBar('clip', () => 10, out, () => t);
    t = 500;
    bar.update(5);
    bar.end();
    expect(written).toEqual(['\rclip [##########..........] 5/10 frames, 10 frames/s ', '\n']);
  });
});
