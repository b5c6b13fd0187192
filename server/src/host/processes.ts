import { promises as fs } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  /** Short name from /proc/<pid>/comm. */
  name: string;
  /** Full command line, arguments joined by spaces. */
  cmdline: string;
}

/** The machine's processes from /proc (Linux); empty where /proc is not available. */
export async function listProcesses(procRoot = '/proc'): Promise<ProcessInfo[]> {
  let entries: string[];
  try {
    entries = await fs.readdir(procRoot);
  } catch {
    return [];
  }
  const out: ProcessInfo[] = [];
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e) => {
        try {
          const [name, cmd] = await Promise.all([
            fs.readFile(`${procRoot}/${e}/comm`, 'utf8'),
            fs.readFile(`${procRoot}/${e}/cmdline`, 'utf8'),
          ]);
          out.push({ pid: Number(e), name: name.trim(), cmdline: cmd.replace(/\0/g, ' ').trim() });
        } catch {
          /* the process ended while we looked */
        }
      }),
  );
  return out;
}
