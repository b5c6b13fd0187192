import os from 'node:os';
import si from 'systeminformation';

export interface MachineStatus {
  status: string;
  uptime: number;
  memory: { used: number; total: number };
  disk: { used: number; total: number };
}

/** Reads the machine: uptime, memory in use (without caches) and the disk holding `dataDir`. */
export async function readMachineStatus(dataDir: string): Promise<MachineStatus> {
  const [mem, disks] = await Promise.all([si.mem(), si.fsSize()]);
  // The file system that holds the data folder: the longest mount point that prefixes it.
  const disk =
    disks
      .filter(
        (d) => dataDir === d.mount || dataDir.startsWith(d.mount.endsWith('/') ? d.mount : d.mount + '/'),
      )
      .sort((a, b) => b.mount.length - a.mount.length)[0] ?? disks.find((d) => d.mount === '/');
  const memUsed = mem.active > 0 ? mem.active : mem.total - mem.available;
  const diskFull = disk ? disk.use >= 98 : false;
  const memFull = mem.total > 0 ? mem.available / mem.total < 0.02 : false;
  return {
    status: diskFull || memFull ? 'degraded' : 'running',
    uptime: Math.floor(os.uptime()),
    memory: { used: memUsed, total: mem.total },
    disk: { used: disk?.used ?? 0, total: disk?.size ?? 0 },
  };
}
