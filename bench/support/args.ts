/**
 * The benchmarks' command lines: Node's `parseArgs`, and what a user of a program expects of it. `--help` (or `-h`)
 * prints the program's usage, its own header comment read from the program's file, and exits 0; an unknown option,
 * a missing value, or a value that must be a number (or a comma list of numbers) and is not, is one line on stderr
 * naming the program and the option, and exit code 2, rather than a stack trace or a run on NaN.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { ChromiumGpu } from '../../tests/support/chromium.js';

type Options = NonNullable<ParseArgsConfig['options']>;
/** What `parseArgs` gives for `options`, typed by them. */
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O }>>['values'];

/** The header comment of the program at `url` (the compiled file keeps it), without its comment marks. */
function usageOf(url: string): string {
  const source = readFileSync(fileURLToPath(url), 'utf8');
  const header = /\/\*\*([\s\S]*?)\*\//.exec(source)?.[1] ?? '';
  return header
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

/**
 * Parses `process.argv` for the benchmark whose module is `url` (pass `import.meta.url`). `numbers` names the options
 * whose values must be numbers, or comma lists of them. `refuse(why)` ends the program the same way for the checks
 * a program makes itself (values out of their set, options that exclude each other), and `orRefuse(read)` for a value
 * read by a parser it shares with the CLI (cli/track.ts), whose error it refuses with.
 */
export function benchArgs<const O extends Options>(
  url: string,
  options: O,
  numbers: readonly (keyof O & string)[] = [],
  positionals = false,
): { values: Values<O>; positionals: string[]; refuse: (why: string) => never; orRefuse: <T>(read: () => T) => T } {
  const program = basename(fileURLToPath(url));
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usageOf(url));
    process.exit(0);
  }
  const refuse = (why: string): never => {
    console.error(`${program}: ${why} (--help for the usage)`);
    process.exit(2);
  };
  let values!: Values<O>;
  let rest: string[] = [];
  try {
    // With `positionals`, what follows `--` is the program's to pass on (parseArgs gives it as positionals).
    ({ values, positionals: rest } = parseArgs({ args, options, allowPositionals: positionals }));
  } catch (e) {
    // parseArgs's messages name the option and what is wrong with it; its hints speak of code, not of a command line.
    refuse((e as Error).message.replace(/\. To specify .*$|\. Did you forget .*$/s, ''));
  }
  for (const name of numbers) {
    const v = (values as Record<string, unknown>)[name];
    if (typeof v === 'string' && v.split(',').some((part) => part.trim() === '' || !Number.isFinite(Number(part)))) refuse(`--${name} takes a number${v.includes(',') ? ' list' : ''}, got "${v}"`);
  }
  const orRefuse = <T>(read: () => T): T => {
    try {
      return read();
    } catch (e) {
      return refuse((e as Error).message);
    }
  };
  return { values, positionals: rest, refuse, orRefuse };
}

/**
 * `--chromium-gpu` (vulkan or swiftshader) and `--chromium-flags` (extra flags, space-separated; undefined when not
 * given) as the browser programs read them.
 */
export function chromiumOptions(gpu: unknown, flags: unknown, refuse: (why: string) => never): { gpu: ChromiumGpu; flags: string[] | undefined } {
  if (gpu !== 'vulkan' && gpu !== 'swiftshader') return refuse(`--chromium-gpu takes vulkan or swiftshader, got "${String(gpu)}"`);
  return { gpu, flags: flags === undefined ? undefined : String(flags).split(/\s+/).filter(Boolean) };
}
