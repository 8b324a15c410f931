// Reading an input file with the error a user can act on: which file, and why it could not be read.
import { readFile } from 'node:fs/promises';
import { DecodeError } from '../../src/errors.js';

export async function readInput(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (cause as Error).message;
    throw new DecodeError(`${path}: cannot read (${why})`, path, { cause });
  }
}
