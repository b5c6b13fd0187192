import { promises as fs } from 'node:fs';

/**
 * The last `lines` lines of a file, reading backwards in chunks so a large log costs only what
 * is shown. Null when the file cannot be read.
 */
export async function tailFile(
  file: string,
  lines: number,
  maxBytes = 8 * 1024 * 1024,
): Promise<string[] | null> {
  let handle;
  try {
    handle = await fs.open(file, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = await handle.stat();
    const chunk = 64 * 1024;
    let pos = size;
    let text = '';
    while (pos > 0 && size - pos < maxBytes) {
      const len = Math.min(chunk, pos);
      pos -= len;
      const buf = Buffer.alloc(len);
      await handle.read(buf, 0, len, pos);
      text = buf.toString('utf8') + text;
      if (text.split('\n').length > lines + 1) break;
    }
    const all = text.replace(/\n$/, '').split('\n');
    if (all.length === 1 && all[0] === '') return [];
    return all.slice(-lines);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** A file's size in bytes, 0 when it cannot be read. */
export async function fileSize(file: string): Promise<number> {
  return (await fs.stat(file).catch(() => ({ size: 0 }))).size;
}

/**
 * What a followed file gained since byte `pos` (at most `max` bytes). A file now shorter than
 * `pos` was rotated or truncated: it is read from its start, and `from` says so (`bytes` is empty
 * when nothing is new). Null when the file cannot be read.
 */
export async function readGrowth(
  file: string,
  pos: number,
  max = 1024 * 1024,
): Promise<{ from: number; bytes: Buffer } | null> {
  const st = await fs.stat(file).catch(() => null);
  if (!st) return null;
  const from = st.size < pos ? 0 : pos;
  if (st.size === from) return { from, bytes: Buffer.alloc(0) };
  const len = Math.min(st.size - from, max);
  const h = await fs.open(file, 'r');
  const bytes = Buffer.alloc(len);
  try {
    await h.read(bytes, 0, len, from);
  } finally {
    await h.close();
  }
  return { from, bytes };
}
