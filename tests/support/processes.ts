// Running processes, read from /proc (no tools needed): to check that a source left no ffmpeg behind.
import { readdirSync, readFileSync } from 'node:fs';

/** Command lines of running ffmpeg processes whose arguments mention `text` (a folder, a URL). */
export function ffmpegsOn(text: string): string[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ');
      } catch {
        return '';
      }
    })
    .filter((c) => c.includes('ffmpeg') && c.includes(text));
}
