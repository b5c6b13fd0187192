import { useSyncExternalStore } from 'react';

/** The stored login (spec §3 "stored browser values"): the api key and the user email. */
const KEY = 'api_key';
const EMAIL = 'user_email';
/** 'mailbox' for a mailbox user (only /account); absent for a console account. */
const KIND = 'user_kind';

type Listener = () => void;
const listeners = new Set<Listener>();

function read(name: string): string | null {
  try {
    return window.localStorage.getItem(name);
  } catch {
    return null;
  }
}

function emit(): void {
  for (const l of listeners) l();
}

export function getApiKey(): string | null {
  return read(KEY);
}

export function getUserEmail(): string | null {
  return read(EMAIL);
}

// Why the last sign-out happened when it was not the user's choice (an expired session), for /login.
let signOutReason: string | null = null;

export function setLogin(key: string, email: string, kind?: 'admin' | 'mailbox'): void {
  signOutReason = null;
  window.localStorage.setItem(KEY, key);
  window.localStorage.setItem(EMAIL, email);
  setUserKind(kind);
  emit();
}

export function setUserKind(kind: 'admin' | 'mailbox' | undefined): void {
  if (kind === 'mailbox') window.localStorage.setItem(KIND, kind);
  else window.localStorage.removeItem(KIND);
}

/** A mailbox user's console is only /account (its session reaches nothing else). */
export function isMailboxUser(): boolean {
  return read(KIND) === 'mailbox';
}

export function clearLogin(reason?: string): void {
  signOutReason = reason ?? null;
  window.localStorage.removeItem(KEY);
  window.localStorage.removeItem(EMAIL);
  window.localStorage.removeItem(KIND);
  emit();
}

export function getSignOutReason(): string | null {
  return signOutReason;
}

/** Called on every sign-in or sign-out, in this tab or (through the storage event) another. */
export function subscribeAuth(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === KEY || e.key === EMAIL) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export interface AuthState {
  apiKey: string | null;
  email: string | null;
  signedIn: boolean;
}

// useSyncExternalStore needs a stable snapshot: cache it until the stored values change.
let cached: AuthState = { apiKey: null, email: null, signedIn: false };
function snapshot(): AuthState {
  const apiKey = getApiKey();
  const email = getUserEmail();
  if (apiKey !== cached.apiKey || email !== cached.email) {
    cached = { apiKey, email, signedIn: apiKey !== null && apiKey !== '' };
  }
  return cached;
}

export function useAuth(): AuthState {
  return useSyncExternalStore(subscribeAuth, snapshot, snapshot);
}
