/**
 * What the camera examples' pages share: how a failure shows, and the adapter's name in the status line. Each
 * example keeps what it saw in a `seen` object the browser tests read; a failure goes there too.
 */
import type { GpuContext } from 'flowmark';

/** A handler for a stream's or a promise's error: shows it in `status` and keeps its message in `seen.error`. */
export function showError(status: HTMLElement, seen: { error: string }): (e: Error) => void {
  return (e) => {
    seen.error = e.message;
    status.textContent = `error: ${e.message}`;
  };
}

/** The adapter the context runs on, as the status lines name it. */
export const adapterText = (ctx: GpuContext): string => `${ctx.adapterName}${ctx.isFallbackAdapter ? ' (software)' : ''}`;

/** Appends a figure to a page's record of recent ones, keeping the last `last` (a page may run for hours). */
export function keepRecent(list: number[], value: number, last = 600): void {
  list.push(value);
  if (list.length > last) list.splice(0, list.length - last);
}
