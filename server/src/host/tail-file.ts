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
