#!/usr/bin/env node
// The `flowmark` command line.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { labelUsage, parseLabelArgs, runLabel, UsageError } from './label.js';

const usage = `Usage: flowmark <command> [options]

Commands:
  label <png|mp4...> --out-dir DIR   label connected components on the GPU (flowmark label --help)

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
  if (command !== 'label') {
    process.stderr.write(`flowmark: unknown command "${command}"\n\n${usage}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        'out-dir': { type: 'string' },
        connectivity: { type: 'string' },
        algorithm: { type: 'string' },
        passes: { type: 'string' },
        threshold: { type: 'string' },
        method: { type: 'string' },
        window: { type: 'string' },
        offset: { type: 'string' },
        invert: { type: 'boolean' },
        stats: { type: 'boolean' },
        labels: { type: 'boolean' },
        'max-components': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    process.stderr.write(`flowmark label: ${(e as Error).message}\n\n${labelUsage}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(labelUsage);
    return 0;
  }
  try {
    return await runLabel(parseLabelArgs(parsed.values, parsed.positionals));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`flowmark label: ${e.message}\n\n${labelUsage}`);
      return 2;
    }
    process.stderr.write(`flowmark label: ${(e as Error).message}\n`);
    return 1;
  }
}

// Exit explicitly: a Dawn instance still being collected must not keep the process alive.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`flowmark: ${(e as Error)?.stack ?? e}\n`);
    process.exit(1);
  },
);
