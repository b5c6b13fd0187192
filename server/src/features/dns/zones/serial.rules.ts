import { SERIAL_MAX } from '@mailroom/contract/dns';

/** YYYYMMDD00 of a date, in UTC. */
export function dateSerialBase(now: Date): number {
  return (now.getUTCFullYear() * 10000 + (now.getUTCMonth() + 1) * 100 + now.getUTCDate()) * 100;
}

/**
 * The next SOA serial after `current`: today's YYYYMMDDnn when that is higher, else current + 1,
 * so it never goes backwards (past nn = 99 it runs into tomorrow's numbers, which is still
 * increasing). `atLeast` lets an administrator push it higher by hand.
 */
export function nextSerial(current: number, now: Date, atLeast = 0): number {
  const next = Math.max(current + 1, dateSerialBase(now), atLeast);
  // RFC 1982 arithmetic would allow a wrap; refusing to wrap keeps every secondary in step.
  return Math.min(next, SERIAL_MAX);
}
