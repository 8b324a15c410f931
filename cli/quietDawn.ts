// Dawn writes some warnings from native code straight to file descriptor 2, with no hook to turn them off: on a
// software Vulkan (Mesa's lavapipe) every run starts with two lines saying its limits on dynamic buffers were
// reduced. They say nothing a user can act on, so the command runs itself as a child process and passes the child's
// stderr through a filter that takes those lines out. `FLOWMARK_CLI_STDERR=direct` runs the command in this process
// instead, stderr untouched (the child is started that way).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The environment variable that runs the command in this process, its stderr as Dawn writes it. */
export const directStderr = 'FLOWMARK_CLI_STDERR';
/** Set for the child when the parent's stderr is a terminal: the progress bar is drawn in place there too. */
const terminalStderr = 'FLOWMARK_CLI_STDERR_TTY';

const dawnWarning = /^Warning: \w+ artificially reduced from \d+ to \d+ to fit dynamic offset allocation limit\.\r?\n$/;
const prefix = 'Warning: ';

/** Whether the command's stderr ends at a terminal (its own, or the parent's that filters it). */
export function stderrIsTerminal(): boolean {
  return Boolean(process.stderr.isTTY) || process.env[terminalStderr] === '1';
}

/**
 * A filter over text written in chunks: whole lines that are Dawn's limit warnings are dropped, everything else is
 * passed to `write` as soon as it cannot be the start of one, so a progress bar redrawn with `\r` still shows at once.
 */
export function dawnWarningFilter(write: (text: string) => void): { push(chunk: string): void; end(): void } {
  let held = '';
  return {
    push(chunk) {
      held += chunk;
      for (let nl = held.indexOf('\n'); nl >= 0; nl = held.indexOf('\n')) {
        const line = held.slice(0, nl + 1);
        held = held.slice(nl + 1);
        if (!dawnWarning.test(line)) write(line);
      }
      const mayBeWarning = held.length < prefix.length ? prefix.startsWith(held) : held.startsWith(prefix);
      if (held && !mayBeWarning) {
        write(held);
        held = '';
      }
    },
    end() {
      if (held) write(held);
      held = '';
    },
  };
}

/**
 * Runs this command line again as a child process with its stderr filtered, and resolves to the exit code to leave
 * with. SIGINT, SIGTERM and SIGHUP sent to this process are passed to the child (which writes what it has, as it
 * would alone); a child ended by a signal ends this process by the same signal.
 */
export function runFiltered(args: readonly string[]): Promise<number> {
  const script = fileURLToPath(new URL('./main.js', import.meta.url));
  const env = { ...process.env, [directStderr]: 'direct', ...(process.stderr.isTTY ? { [terminalStderr]: '1' } : {}) };
  const child = spawn(process.execPath, [...process.execArgv, script, ...args], { env, stdio: ['inherit', 'inherit', 'pipe'] });
  const filter = dawnWarningFilter((text) => process.stderr.write(text));
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => filter.push(chunk));
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const s of signals) process.on(s, forward);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    // 'close' comes after the child's stderr has ended: everything it wrote is through the filter.
    child.on('close', (code, signal) => {
      filter.end();
      for (const s of signals) process.off(s, forward);
      if (signal) {
        if ((signals as readonly string[]).includes(signal)) process.kill(process.pid, signal);
        resolve(128 + (constants.signals[signal] ?? 0));
      } else resolve(code ?? 1);
    });
  });
}
