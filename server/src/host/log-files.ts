import { createReadStream, promises as fs } from 'node:fs';
import readline from 'node:readline';

export const CHUNK = 256 * 1024;

export interface RawLine {
  /** Byte offset of the line's first byte. */
  offset: number;
  text: string;
}

export interface BackwardPage {
  lines: RawLine[];
  /** Where the next (older) page ends; null at the start of the file. */
  next: number | null;
}

/**
 * Reads a file backwards from byte `end` (exclusive; the file's end when absent), line by line,
 * keeping the lines `keep` accepts, until `limit` are kept, the start of the file, or `maxScan`
 * bytes were read. Never loads the file whole: a page costs the bytes it walks over.
 */
export async function readBackwards(
  file: string,
  end: number | undefined,
  limit: number,
  keep: (line: string) => boolean,
  maxScan = 64 * 1024 * 1024,
): Promise<BackwardPage> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    let pos = Math.min(end ?? size, size);
    let carry = Buffer.alloc(0);
    const lines: RawLine[] = [];
    let scanned = 0;
    while (pos > 0 && lines.length < limit && scanned < maxScan) {
      const len = Math.min(CHUNK, pos);
      pos -= len;
      const buf = Buffer.allocUnsafe(len + carry.length);
      await handle.read(buf, 0, len, pos);
      carry.copy(buf, len);
      scanned += len;
      let tail = buf.length;
      while (tail > 0 && lines.length < limit) {
        const nl = buf.lastIndexOf(10, tail - 1);
        if (nl < 0 && pos > 0) break;
        const start = nl + 1;
        if (tail > start) {
          const text = buf.toString('utf8', start, tail).replace(/\r$/, '');
          if (text && keep(text)) lines.push({ offset: pos + start, text });
        }
        tail = nl < 0 ? 0 : nl;
      }
      carry = buf.subarray(0, tail);
      // A "line" longer than 1 MiB is cut there rather than held whole.
      if (carry.length > 1024 * 1024) carry = carry.subarray(carry.length - 1024 * 1024);
    }
    const next = pos + carry.length;
    return { lines, next: next > 0 ? next : null };
  } finally {
    await handle.close();
  }
}

export async function firstExisting(files: string[]): Promise<string | null> {
  for (const f of files) {
    try {
      if ((await fs.stat(f)).isFile()) return f;
    } catch {
      /* next */
    }
  }
  return null;
}

/** The lines of a file before byte `end` (the whole file without it), streamed. */
export function fileLines(file: string, end?: number): AsyncIterable<string> {
  return readline.createInterface({
    input: createReadStream(file, end !== undefined ? { end: end - 1 } : {}),
    crlfDelay: Infinity,
  });
}
