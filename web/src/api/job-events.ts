import type { JobEvent, NotificationEvent } from '@mailroom/contract/jobs';
import type { MAIL_SAVE_EVENT as ContractMailSaveEvent, MailSaveProgress } from '@mailroom/contract/mail';
import type { APP_LOG_EVENT as ContractAppLogEvent, AppLogEvent } from '@mailroom/contract/web';
import { EVENT_NAMES, EVENTS_PATH } from './first-screen-routes.ts';

/** The contract's APP_LOG_EVENT (by value here: the first screen must not load the contract's schemas). */
const APP_LOG_EVENT: typeof ContractAppLogEvent = 'app-log';
const MAIL_SAVE_EVENT: typeof ContractMailSaveEvent = 'mail-save';

export type ServerEventListener = {
  job?: (j: JobEvent) => void;
  notification?: (n: NotificationEvent) => void;
  /** New lines of a web application's deploy (or rollback) log. */
  appLog?: (e: AppLogEvent) => void;
  /** A mail settings save's steps as they change (any console's save: match its saveId). */
  mailSave?: (p: MailSaveProgress) => void;
  /** The stream (re)opened: events may have been missed meanwhile. */
  ready?: () => void;
};

// One EventSource per tab, opened while someone listens (the session cookie authenticates it).
let source: EventSource | null = null;
const listeners = new Set<ServerEventListener>();

function parse<T>(e: Event): T | null {
  try {
    return JSON.parse(String((e as MessageEvent<unknown>).data)) as T;
  } catch {
    return null;
  }
}

function open(): void {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource(EVENTS_PATH, { withCredentials: true });
  source.addEventListener(EVENT_NAMES.job, (e) => {
    const j = parse<JobEvent>(e);
    if (j) for (const l of listeners) l.job?.(j);
  });
  source.addEventListener(EVENT_NAMES.notification, (e) => {
    const n = parse<NotificationEvent>(e);
    if (n) for (const l of listeners) l.notification?.(n);
  });
  source.addEventListener(APP_LOG_EVENT, (e) => {
    const a = parse<AppLogEvent>(e);
    if (a) for (const l of listeners) l.appLog?.(a);
  });
  source.addEventListener(MAIL_SAVE_EVENT, (e) => {
    const p = parse<MailSaveProgress>(e);
    if (p) for (const l of listeners) l.mailSave?.(p);
  });
  source.addEventListener(EVENT_NAMES.ready, () => {
    for (const l of listeners) l.ready?.();
  });
}

/** Listens to `/api/events`; the stream closes when the last listener leaves. */
export function subscribeServerEvents(listener: ServerEventListener): () => void {
  listeners.add(listener);
  open();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && source) {
      source.close();
      source = null;
    }
  };
}
