import { readdirSync } from 'node:fs';
import path from 'node:path';
import { defaultMailSettings } from '@mailroom/contract/mail';
import { freePort } from '../../../server/test/postgres-cluster.ts';
import { Smtp, messageText, sendOn } from '../../../server/test/mail-clients.ts';
import { missingMailPackages, startMailDaemons } from '../../../server/test/mail-daemons.ts';
import { Host } from '../../../server/src/host/host.ts';
import { HashPool } from '../../../server/src/lib/hash-pool.ts';
import { createMailbox } from '../../../server/src/features/mail/mailboxes/mailbox.service.ts';
import { mailDbConn } from '../../../server/src/features/mail/stack/mail-db.connection.ts';
import { prepareLocalMailHost } from '../../../server/src/features/mail/settings/mail-setup.service.ts';
import { renderMailFiles } from '../../../server/src/features/mail/stack/mail-stack.service.ts';
import type { BenchContext, BenchRow } from '../suite.ts';
import { openBenchDb } from './bench-db.ts';

const MAILBOXES = 100;
const MESSAGES = 1000;
const SESSIONS = 8;

const delivered = (vmail: string) => {
  let n = 0;
  for (const domain of readdirSync(vmail).filter((d) => !d.startsWith('.')))
    for (const user of readdirSync(path.join(vmail, domain)))
      try {
        n += readdirSync(path.join(vmail, domain, user, 'Maildir/new')).length;
      } catch {
        /* nothing delivered yet */
      }
  return n;
};

/**
 * SMTP acceptance rate of the rendered stack (SQLite): Postfix and Dovecot started unedited on
 * Mailroom's files, 1,000 small messages to 100 mailboxes over 8 sessions; then the time until all
 * are in the Maildirs (LMTP delivery).
 */
export async function smtpBench(ctx: BenchContext): Promise<BenchRow[]> {
  const missing = missingMailPackages('sqlite');
  if (missing.length || process.getuid?.() !== 0) {
    const why = missing.length ? `Debian packages missing: ${missing.join(', ')}` : 'needs root';
    ctx.log(`SMTP acceptance bench skipped: ${why}`);
    return [{ measure: `SMTP acceptance, ${MESSAGES} messages`, value: `skipped (${why})` }];
  }
  const db = await openBenchDb('sqlite');
  const pool = new HashPool(2);
  const host = new Host(path.join(db.dataDir, 'root'), false);
  const ports = {
    smtp: await freePort(),
    submission: await freePort(),
    imap: await freePort(),
    imaps: await freePort(),
  };
  let stop: (() => Promise<void>) | null = null;
  try {
    const mctx = { db: db.handle.db, database: db.handle, host, hasher: pool };
    for (let i = 0; i < MAILBOXES; i++)
      await createMailbox(mctx, { email: `user${i}@smtp.bench.test`, password: `password-${i}`, quota: 0 });
    const settings = {
      ...defaultMailSettings('mail.smtp.bench.test', 'smtp.bench.test'),
      enableSpamFilter: false,
      enableVirusScan: false,
      enableDKIM: false,
    };
    // The rendered files as the apply pipeline would write them (the bench measures SMTP, not the apply).
    const conn = mailDbConn(db.handle);
    await prepareLocalMailHost(host, conn);
    await host.commitFiles(await renderMailFiles(db.handle.db, host, conn, settings, { ports }));
    const daemons = await startMailDaemons(host.path('/'), ports);
    stop = () => daemons.stop();
    ctx.log(`sending ${MESSAGES} messages to ${MAILBOXES} mailboxes over ${SESSIONS} SMTP sessions`);
    let next = 0;
    let accepted = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: SESSIONS }, async () => {
        const c = await Smtp.connect(ports.smtp);
        await c.ehlo();
        for (let i = next++; i < MESSAGES; i = next++) {
          const to = [`user${i % MAILBOXES}@smtp.bench.test`];
          const r = await sendOn(
            c,
            'sender@example.net',
            to,
            messageText({ from: 'sender@example.net', to, subject: `bench-${i}` }),
          );
          if (r.data?.code === 250) accepted++;
        }
        c.close();
      }),
    );
    const acceptSeconds = (performance.now() - start) / 1000;
    const vmail = host.path('/var/vmail');
    const deadline = Date.now() + 120_000;
    while (delivered(vmail) < accepted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const deliverSeconds = (performance.now() - start) / 1000;
    const inMaildirs = delivered(vmail);
    return [
      {
        measure: `SMTP acceptance, ${MESSAGES} small messages to ${MAILBOXES} mailboxes (${SESSIONS} sessions)`,
        value: `${(accepted / acceptSeconds).toFixed(0)} messages/s (${accepted} accepted)`,
        raw: { accepted, seconds: acceptSeconds },
      },
      {
        measure: `delivered into the Maildirs over LMTP (from the first MAIL FROM)`,
        value: `${(inMaildirs / deliverSeconds).toFixed(0)} messages/s (${inMaildirs} delivered)`,
        raw: { delivered: inMaildirs, seconds: deliverSeconds },
      },
    ];
  } finally {
    await stop?.();
    await pool.close();
    await db.close();
  }
}
