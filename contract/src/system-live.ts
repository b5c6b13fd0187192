import { z } from 'zod';
import { defineRoute } from './route.ts';
import { SystemService } from './system-metrics.ts';
import { queryInt } from './validators.ts';

/** Spec §3.3 Process, read from /proc. cpu and memory in percent. */
export const ProcessStatus = z.enum(['running', 'sleeping', 'stopped', 'other']);
export const SystemProcess = z.object({
  pid: z.number(),
  name: z.string(),
  user: z.string(),
  cpu: z.number(),
  memory: z.number(),
  status: ProcessStatus,
  startTime: z.string(),
  command: z.string(),
  /** Bytes of resident memory, for the details view. */
  rss: z.number(),
  ppid: z.number(),
  threads: z.number(),
});
export type SystemProcess = z.infer<typeof SystemProcess>;
export const ProcessesAnswer = z.object({ processes: z.array(SystemProcess) });

export const PidParams = z.object({ pid: queryInt(1, 4_194_304, 'PID') });
export const KillBody = z.object({
  /** SIGTERM first; SIGKILL only after a second confirmation. */
  signal: z.enum(['SIGTERM', 'SIGKILL']),
});
export const KillAnswer = z.object({
  pid: z.number(),
  signal: z.enum(['SIGTERM', 'SIGKILL']),
  /** Whether the process was gone within a moment after the signal. */
  exited: z.boolean(),
  message: z.string(),
});

/** Spec §3.3 Connection, from the kernel's socket tables. */
export const ConnectionState = z.enum(['established', 'listening', 'time-wait', 'other']);
export const SystemConnection = z.object({
  id: z.string(),
  protocol: z.enum(['tcp', 'tcp6', 'udp', 'udp6']),
  localAddress: z.string(),
  remoteAddress: z.string(),
  state: ConnectionState,
  /** The kernel's own name of the state (ESTABLISHED, CLOSE_WAIT, ...). */
  kernelState: z.string(),
  process: z.string(),
  pid: z.number().nullable(),
  timestamp: z.string(),
});
export type SystemConnection = z.infer<typeof SystemConnection>;
export const ConnectionsAnswer = z.object({ connections: z.array(SystemConnection) });
export const CloseConnectionBody = z.object({ id: z.string().min(1).max(200) });
export const CloseConnectionAnswer = z.object({ closed: z.boolean(), message: z.string() });

/** Spec §3.3 Disk, sizes in bytes. */
export const SystemDisk = z.object({
  device: z.string(),
  mountPoint: z.string(),
  fileSystem: z.string(),
  totalSize: z.number(),
  usedSize: z.number(),
  availableSize: z.number(),
  usagePercent: z.number(),
});
export type SystemDisk = z.infer<typeof SystemDisk>;
export const DisksAnswer = z.object({ disks: z.array(SystemDisk) });

export const CleanupKind = z.enum(['apt-cache', 'rotated-logs', 'removed-mail']);
export type CleanupKind = z.infer<typeof CleanupKind>;
export const CleanupItem = z.object({
  kind: CleanupKind,
  label: z.string(),
  /** The folder it looks in. */
  path: z.string(),
  files: z.number(),
  bytes: z.number(),
});
export const CleanupQuery = z.object({ days: queryInt(1, 3650, 'Days').optional() });
export const CleanupPreview = z.object({
  items: z.array(CleanupItem),
  totalBytes: z.number(),
  days: z.number(),
});
export const CleanupBody = z.object({
  kinds: z.array(CleanupKind).min(1, 'Choose at least one thing to clean up'),
  days: z.number().int().min(1).max(3650).optional(),
});
export const CleanupAnswer = z.object({
  removedFiles: z.number(),
  freedBytes: z.number(),
  errors: z.array(z.string()),
});

/** Spec §3.3 Log (monitoring). id is the entry's byte offset (files) or journal cursor. */
export const LogLevel = z.enum(['error', 'warning', 'info', 'debug']);
export type LogLevel = z.infer<typeof LogLevel>;
/**
 * `apps`: the web applications' own logs (their stdout/stderr, written and rotated by Mailroom at each
 * application's Log Path), merged newest first; service = the application's name.
 */
export const LogSource = z.enum(['mail', 'dns', 'web', 'system', 'mailroom', 'apps']);
export type LogSource = z.infer<typeof LogSource>;
export const LogEntry = z.object({
  id: z.string(),
  timestamp: z.string(),
  level: LogLevel,
  service: z.string(),
  message: z.string(),
  source: z.string(),
  pid: z.number().nullable(),
});
export type LogEntry = z.infer<typeof LogEntry>;
export const LogsQuery = z.object({
  source: LogSource.optional(),
  level: LogLevel.optional(),
  service: z.string().max(64).optional(),
  search: z.string().max(200).optional(),
  /** Where the previous page ended (an opaque position); absent: from the newest entry. */
  cursor: z.string().max(4000).optional(),
  limit: queryInt(1, 500, 'Limit').optional(),
});
export type LogsQuery = z.infer<typeof LogsQuery>;
export const LogsAnswer = z.object({
  entries: z.array(LogEntry),
  /** Cursor of the next (older) page; null at the start of the log. */
  nextCursor: z.string().nullable(),
  /** Where the entries came from (a file path or `journald`), or why nothing could be read. */
  origin: z.string(),
});

/** A message in Postfix's queue (postqueue -j). */
export const QueueRecipient = z.object({ address: z.string(), reason: z.string().nullable() });
export const QueueMessage = z.object({
  id: z.string(),
  queue: z.string(),
  arrivalTime: z.string(),
  size: z.number(),
  sender: z.string(),
  recipients: z.array(QueueRecipient),
});
export type QueueMessage = z.infer<typeof QueueMessage>;
export const QueueAnswer = z.object({
  messages: z.array(QueueMessage),
  /** Null when the queue could be read; otherwise why not. */
  unavailable: z.string().nullable(),
});
export const QueueIdParams = z.object({
  id: z.string().regex(/^[0-9A-Za-z]{5,32}$/, 'Not a queue id'),
});
export const QueueMessageText = z.object({ id: z.string(), text: z.string() });
export const QueueActionAnswer = z.object({ ok: z.boolean(), message: z.string() });

export const ServiceIdParams = z.object({ id: z.string().regex(/^[a-z0-9-]{1,32}$/, 'Not a service id') });
export const ServiceAction = z.enum(['start', 'stop', 'restart']);
export const ServiceActionBody = z.object({ action: ServiceAction });
export const ServiceActionAnswer = z.object({ ok: z.boolean(), message: z.string(), service: SystemService });
export const RestartAllAnswer = z.object({
  results: z.array(z.object({ id: z.string(), ok: z.boolean(), message: z.string() })),
});

/**
 * Clear Logs (spec §2.10): the log files Mailroom writes or manages. The current file of each is
 * emptied (its writer keeps appending), rotated copies are deleted; journald's store, the web
 * server's and the system's logs are never touched. `apps`: the web applications' logs (Mailroom
 * writes them itself: the apps' output at their Log Path, and their rotated copies).
 */
export const ClearableLog = z.enum(['mail', 'dns', 'mailroom', 'apps']);
export type ClearableLog = z.infer<typeof ClearableLog>;
export const LogFile = z.object({
  log: ClearableLog,
  path: z.string(),
  size: z.number(),
  modified: z.string(),
  /** A rotated copy (deleted by Clear Logs) rather than the current file (emptied). */
  rotated: z.boolean(),
  /** `apps`: the application whose log it is (its service name in the logs). */
  app: z.string().optional(),
});
export type LogFile = z.infer<typeof LogFile>;
export const LogFilesAnswer = z.object({ files: z.array(LogFile), totalBytes: z.number() });
export const ClearLogsBody = z.object({
  logs: z.array(ClearableLog).min(1, 'Choose at least one log to clear'),
});
export const ClearLogsAnswer = z.object({
  emptied: z.number(),
  deleted: z.number(),
  freedBytes: z.number(),
  errors: z.array(z.string()),
});

export const LOG_STREAM_PATH = '/api/system/logs/stream';
export const LOG_DOWNLOAD_PATH = '/api/system/logs/download';

export const systemLiveRoutes = {
  processes: defineRoute({
    method: 'GET',
    path: 'system/processes',
    summary: "The machine's processes (from /proc)",
    tags: ['system'],
    response: ProcessesAnswer,
  }),
  kill: defineRoute({
    method: 'POST',
    path: 'system/processes/:pid/kill',
    summary: 'Send SIGTERM (or, confirmed again, SIGKILL) to a process; never PID 1 or Mailroom itself',
    tags: ['system'],
    params: PidParams,
    body: KillBody,
    response: KillAnswer,
    audit: 'system.process.kill',
  }),
  connections: defineRoute({
    method: 'GET',
    path: 'system/connections',
    summary: "The kernel's TCP and UDP sockets with their processes",
    tags: ['system'],
    response: ConnectionsAnswer,
  }),
  closeConnection: defineRoute({
    method: 'POST',
    path: 'system/connections/close',
    summary: 'Close a TCP connection (ss -K), or say why the kernel does not allow it',
    tags: ['system'],
    body: CloseConnectionBody,
    response: CloseConnectionAnswer,
    audit: 'system.connection.close',
  }),
  disks: defineRoute({
    method: 'GET',
    path: 'system/disks',
    summary: 'Mounted file systems with their sizes',
    tags: ['system'],
    response: DisksAnswer,
  }),
  cleanupPreview: defineRoute({
    method: 'GET',
    path: 'system/disks/cleanup',
    summary: 'What a cleanup would remove and free (apt cache, rotated logs, removed mail)',
    tags: ['system'],
    query: CleanupQuery,
    response: CleanupPreview,
  }),
  cleanup: defineRoute({
    method: 'POST',
    path: 'system/disks/cleanup',
    summary: 'Remove what the preview listed',
    tags: ['system'],
    body: CleanupBody,
    response: CleanupAnswer,
    audit: 'system.disk.cleanup',
  }),
  logs: defineRoute({
    method: 'GET',
    path: 'system/logs',
    summary: 'A page of log entries, newest first, filtered',
    tags: ['system'],
    query: LogsQuery,
    response: LogsAnswer,
  }),
  logFiles: defineRoute({
    method: 'GET',
    path: 'system/logs/files',
    summary:
      "The log files Clear Logs empties or deletes (mail, DNS, Mailroom, the applications' logs), with their sizes",
    tags: ['system'],
    response: LogFilesAnswer,
  }),
  clearLogs: defineRoute({
    method: 'POST',
    path: 'system/logs/clear',
    summary: "Clear Logs: empty the chosen logs' files and delete their rotated copies (never journald)",
    tags: ['system'],
    body: ClearLogsBody,
    response: ClearLogsAnswer,
    audit: 'system.logs.clear',
  }),
  serviceAction: defineRoute({
    method: 'POST',
    path: 'system/services/:id/action',
    summary: 'Start, stop or restart a service (systemd, or Mailroom’s supervisor in local mode)',
    tags: ['system'],
    params: ServiceIdParams,
    body: ServiceActionBody,
    response: ServiceActionAnswer,
    audit: 'system.service.action',
  }),
  restartAll: defineRoute({
    method: 'POST',
    path: 'system/services/restart-all',
    summary: 'Restart every running service Mailroom may restart',
    tags: ['system'],
    response: RestartAllAnswer,
    audit: 'system.service.restart-all',
  }),
  queue: defineRoute({
    method: 'GET',
    path: 'system/queue',
    summary: "Postfix's mail queue (postqueue -j)",
    tags: ['system'],
    response: QueueAnswer,
  }),
  queueMessage: defineRoute({
    method: 'GET',
    path: 'system/queue/:id',
    summary: 'One queued message (postcat -q)',
    tags: ['system'],
    params: QueueIdParams,
    response: QueueMessageText,
  }),
  queueDelete: defineRoute({
    method: 'POST',
    path: 'system/queue/:id/delete',
    summary: 'Delete a queued message (postsuper -d)',
    tags: ['system'],
    params: QueueIdParams,
    response: QueueActionAnswer,
    audit: 'system.queue.delete',
  }),
  queueRequeue: defineRoute({
    method: 'POST',
    path: 'system/queue/:id/requeue',
    summary: 'Requeue a message (postsuper -r)',
    tags: ['system'],
    params: QueueIdParams,
    response: QueueActionAnswer,
    audit: 'system.queue.requeue',
  }),
  queueFlush: defineRoute({
    method: 'POST',
    path: 'system/queue/flush',
    summary: 'Attempt delivery of every queued message (postqueue -f)',
    tags: ['system'],
    response: QueueActionAnswer,
    audit: 'system.queue.flush',
  }),
};
