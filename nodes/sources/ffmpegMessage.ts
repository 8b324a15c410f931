/**
 * What ffmpeg's stderr says, in a line a user reads: its lines without the `[h264 @ 0x…]` prefixes and byte offsets,
 * each said once, the last two said (a truncated file prints the same complaint once per packet left, tens of lines).
 */
export function ffmpegMessage(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/, '').replace(/^stream \d+, offset 0x[0-9a-f]+: /, '').trim())
    .filter((l) => l !== '');
  // Each said once, where it was said last.
  return [...new Set(lines.reverse())].slice(0, 2).reverse().join('; ');
}
