// Reading an input file with the error a user can act on: which file, and why it could not be read.
import { open, readFile } from 'node:fs/promises';
import { DecodeError } from '../../src/errors.js';

function cannotRead(path: string, cause: unknown): DecodeError {
  const code = (cause as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (cause as Error).message;
  return new DecodeError(`${path}: cannot read (${why})`, path, { cause });
}

export async function readInput(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (cause) {
    throw cannotRead(path, cause);
  }
}

/** The first `bytes` bytes of a file (fewer where it is shorter), with readInput's errors. */
export async function readHead(path: string, bytes: number): Promise<Buffer> {
  try {
    const file = await open(path);
    try {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(bytes), 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  } catch (cause) {
    throw cannotRead(path, cause);
  }
}
