// Reading an input file with the error a user can act on: which file, and why it could not be read.
import { open, readFile } from 'node:fs/promises';
import { DecodeError } from '../../src/core/errors.js';
import type { ReadRange } from './readMp4Index.js';

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

/** Parts of a file, as `use` asks for them by offset (its size given), with readInput's errors. */
export async function readRanges<T>(path: string, use: (size: number, read: ReadRange) => Promise<T>): Promise<T> {
  try {
    const file = await open(path);
    try {
      const read: ReadRange = async (start, length) => {
        const buffer = Buffer.alloc(length);
        let done = 0;
        while (done < length) {
          const { bytesRead } = await file.read(buffer, done, length - done, start + done);
          if (bytesRead === 0) break; // the file's end
          done += bytesRead;
        }
        return buffer.subarray(0, done);
      };
      return await use((await file.stat()).size, read);
    } finally {
      await file.close();
    }
  } catch (cause) {
    throw cause instanceof DecodeError ? cause : cannotRead(path, cause);
  }
}

/** The first `bytes` bytes of a file (fewer where it is shorter), with readInput's errors. */
export function readHead(path: string, bytes: number): Promise<Buffer> {
  return readRanges(path, (_, read) => read(0, bytes) as Promise<Buffer>);
}
