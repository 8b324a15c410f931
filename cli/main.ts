#!/usr/bin/env node
// The `flowmark` command line.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { labelUsage, parseLabelArgs, runLabel, UsageError } from './label.js';
import { markersUsage, parseMarkersArgs, runMarkers } from './markers.js';
import { calibrateUsage, parseCalibrateArgs, runCalibrate } from './calibrate.js';
import { parseTrackArgs, runTrack, trackUsage } from './track.js';
import { cameraUsage, runCamera, runWorker, workerUsage } from './worker.js';
import { directStderr, runFiltered } from './quietDawn.js';

const usage = `Usage: flowmark <command> [options]

Commands:
  label <image|video...> --out-dir DIR   label connected components on the GPU (flowmark label --help)
  markers <image|video...> --dictionary NAME --out-dir DIR
                                     find fiducial markers on the GPU (flowmark markers --help)
  track <video...> --out-dir DIR [--line x1,y1,x2,y2 ...]
                                     track moving objects of a fixed camera (flowmark track --help)
  calibrate <image|video...> --dictionary NAME --board C,R,SIZE,GAP|--charuco X,Y,SQ,MK --out FILE
                                     a camera's intrinsics and distortion from views of a board (markers or ChArUco)
                                     (flowmark calibrate --help)
  worker [--redis URL]               run cameras of a fleet kept in Redis on this GPU (flowmark worker --help)
  camera add|remove|list             a fleet's cameras (flowmark camera --help)

Options:
  --help      show this help
  --version   show the version
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') {
    process.stdout.write(usage);
    return command ? 0 : 2;
  }
  if (command === '--version') {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const spec = commands[command as keyof typeof commands];
  if (!spec) {
    process.stderr.write(`flowmark: unknown command "${command}"\n\n${usage}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: withNegativeValues(rest, spec.options), allowPositionals: true, options: { ...spec.options, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    process.stderr.write(`flowmark ${command}: ${(e as Error).message}\n\n${spec.usage}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(spec.usage);
    return 0;
  }
  try {
    return await spec.run(parsed.values as Record<string, string | boolean | undefined>, parsed.positionals);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`flowmark ${command}: ${e.message}\n\n${spec.usage}`);
      return 2;
    }
    process.stderr.write(`flowmark ${command}: ${(e as Error).message}\n`);
    return 1;
  }
}

/**
 * `--line -10,0,-10,239` and `--offset -5` as `--line=-10,0,-10,239`: node:util's parseArgs takes a value that starts
 * with a dash for an option of its own ("argument is ambiguous") unless it is joined with `=`.
 */
function withNegativeValues(args: readonly string[], options: Record<string, { type: string }>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : null;
    if (name && options[name]?.type === 'string' && /^-[\d.]/.test(args[i + 1] ?? '')) {
      out.push(`${a}=${args[++i]}`);
      continue;
    }
    out.push(a);
  }
  return out;
}

type Values = Record<string, string | boolean | undefined>;
const text = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;

/** Each command: its options (node:util parseArgs), usage text, and what runs it. */
const commands = {
  label: {
    usage: labelUsage,
    options: {
      'out-dir': text,
      connectivity: text,
      algorithm: text,
      passes: text,
      threshold: text,
      method: text,
      window: text,
      offset: text,
      invert: flag,
      stats: flag,
      labels: flag,
      'max-components': text,
    },
    run: (values: Values, files: string[]) => runLabel(parseLabelArgs(values, files)),
  },
  markers: {
    usage: markersUsage,
    options: { 'out-dir': text, dictionary: text, windows: text, offset: text, 'min-side': text, camera: text, 'camera-file': text, 'marker-size': text },
    run: (values: Values, files: string[]) => runMarkers(parseMarkersArgs(values, files)),
  },
  calibrate: {
    usage: calibrateUsage,
    options: { out: text, dictionary: text, board: text, charuco: text, terms: text, 'max-views': text, 'min-markers': text, 'min-corners': text },
    run: (values: Values, files: string[]) => runCalibrate(parseCalibrateArgs(values, files)),
  },
  track: {
    usage: trackUsage,
    options: { 'out-dir': text, line: { type: 'string', multiple: true } as const, 'min-area': text, history: text, open: text, close: text, 'foreground-learning': text, prime: text, warmup: text, 'max-unseen': text, 'size-floor': text, shadows: text, 'var-threshold': text, color: { type: 'boolean' } as const, gray: { type: 'boolean' } as const, 'place-by-gray': { type: 'boolean' } as const },
    // --line repeats: node:util gives its values as an array.
    run: (values: Values, files: string[]) => runTrack(parseTrackArgs(values as Record<string, string | boolean | string[] | undefined>, files)),
  },
  worker: {
    usage: workerUsage,
    options: { redis: text, prefix: text, name: text, 'lease-ms': text, 'max-cameras': text, keep: text },
    run: (values: Values) => runWorker(values),
  },
  camera: {
    usage: cameraUsage,
    options: { redis: text, prefix: text, line: { type: 'string', multiple: true } as const, fps: text, size: text, loop: flag, tracking: text },
    run: (values: Values, args: string[]) => runCamera(values, args),
  },
};

const argv = process.argv.slice(2);
// A command runs as a child with Dawn's warnings filtered from its stderr (quietDawn.ts); help and the version do not,
// nor a worker or camera command: a worker is one process, so that a supervisor's signals reach it.
const direct = process.env[directStderr] === 'direct' || !(argv[0] in commands) || ['worker', 'camera'].includes(argv[0]) || argv.includes('--help') || argv.includes('-h');
// Exit explicitly: a Dawn instance still being collected must not keep the process alive.
(direct ? main(argv) : runFiltered(argv)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`flowmark: ${(e as Error)?.stack ?? e}\n`);
    process.exit(1);
  },
);
