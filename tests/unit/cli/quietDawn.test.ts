// Dawn's limit warnings are taken out of the command's stderr; every other byte passes, and passes at once.
import { describe, expect, it } from 'vitest';
import { dawnWarningFilter } from '../../../cli/quietDawn.js';

const uniform = 'Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\n';
const storage = 'Warning: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\n';

function through(chunks: string[]): { out: string; afterEach: string[] } {
  const written: string[] = [];
  const filter = dawnWarningFilter((t) => written.push(t));
  const afterEach = chunks.map((c) => {
    filter.push(c);
    return written.join('');
  });
  filter.end();
  return { out: written.join(''), afterEach };
}

/** `text` cut into pieces at seeded places (a pipe delivers any split). */
function split(text: string, seed: number): string[] {
  const out: string[] = [];
  let s = seed;
  for (let i = 0; i < text.length; ) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const n = 1 + (s % 23);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

describe('dawnWarningFilter', () => {
  const other = ['clip.png: error: cannot read (no such file)\n', '\rclip [##........] 2/10 frames, 40 frames/s ', '\n', '(node:12) Warning: something of Node\n', 'Warning: a line of our own\n', 'x: 1 components\n'];

  it('drops exactly the two limit warnings, however the text is cut into chunks', () => {
    const text = uniform + storage + other.join('') + uniform;
    const want = other.join('');
    for (let seed = 1; seed <= 50; seed++) expect(through(split(text, seed)).out, `seed ${seed}`).toBe(want);
    expect(through([text]).out).toBe(want);
  });

  it('passes a progress bar redrawn in place as it comes, not at the next newline', () => {
    const bar = ['\rclip [#...] 1/4 frames ', '\rclip [##..] 2/4 frames ', '\rclip [###.] 3/4 frames '];
    const { afterEach } = through(bar);
    expect(afterEach).toEqual([bar[0], bar[0] + bar[1], bar.join('')]);
  });

  it('holds text only while it may still be a warning, and gives back an unfinished line at the end', () => {
    const { afterEach, out } = through(['Warn', 'ing: max', 'Dynamic… not a limit line']);
    expect(afterEach).toEqual(['', '', '']);
    expect(out).toBe('Warning: maxDynamic… not a limit line');
    expect(through(['Wa', 'x']).afterEach).toEqual(['', 'Wax']);
  });

  it('keeps a warning line that says something else, and one changed in its numbers only', () => {
    const odd = 'Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced, see the log\n';
    expect(through([odd]).out).toBe(odd);
    expect(through([uniform.replace('1000000', '64')]).out).toBe('');
  });
});
