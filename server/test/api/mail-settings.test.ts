import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

const HAS_POSTCONF = ['/usr/sbin/postconf', '/usr/bin/postconf'].some((p) => {
  try {
    readFileSync(p);
    return true;
  } catch {
    return false;
  }
});

describe.each(dialects())('mail settings on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  const get = async () => {
    const res = await t.call({ method: 'GET', url: '/api/mail/settings' });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const save = (settings: object, version: number) =>
    t.call({ method: 'POST', url: '/api/mail/settings', payload: { settings, version } });
  const file = (p: string) => readFileSync(t.deps.host.path(p), 'utf8');

  it('starts with the spec defaults as version 1, already applied and checked', async () => {
    const body = await get();
    expect(body.version).toBe(1);
    expect(body.settings).toEqual(body.defaults);
    // Virus scanning is on by default only where ClamAV can scan (issue 22 item 15).
    expect(body.settings.enableVirusScan).toBe(body.filter.virusScan.available);
    expect(body.defaults.enableVirusScan).toBe(body.filter.virusScan.available);
    expect(body.settings).toMatchObject({
      enableSpamFilter: true,
      enableDKIM: true,
      enableSPF: true,
      enableDMARC: false,
      requireAuth: true,
      allowPlainText: false,
      enableTLS: true,
      defaultQuota: 1000,
      maxQuota: 10000,
      maxMessageSize: 25,
      maxRecipients: 100,
      deliveryTimeout: 300,
    });
    expect(body.settings.mxRecords).toEqual([{ priority: 10, host: body.settings.hostname }]);
    expect(body.settings.hostname).toMatch(/\./);
    expect(body.appliedAt).not.toBeNull();
    if (HAS_POSTCONF) expect(body.check).toMatchObject({ ok: true });
    // The files Postfix and Dovecot read exist from the first start.
    expect(file('/etc/postfix/main.cf')).toContain(`myhostname = ${body.settings.hostname}`);
    expect(file('/etc/postfix/main.cf')).toContain('message_size_limit = 26214400');
    expect(file('/etc/postfix/mailroom/virtual-aliases.cf')).toContain(
      "WHERE a.source = '%s' AND a.status = 'active'",
    );
    const type = dialect === 'sqlite' ? 'sqlite' : 'pgsql';
    expect(file('/etc/postfix/main.cf')).toContain(
      `virtual_alias_maps = proxy:${type}:${t.deps.host.path('/etc/postfix/mailroom/virtual-aliases.cf')}`,
    );
    expect(file('/etc/dovecot/dovecot-sql.conf.ext')).toContain(`driver = ${type}`);
    expect(file('/etc/dovecot/conf.d/90-mailroom.conf')).toContain('disable_plaintext_auth = yes');
    expect(file('/etc/postfix/main.cf')).toContain('virtual_transport = lmtp:unix:private/dovecot-lmtp');
    expect(file('/etc/postfix/master.cf')).toMatch(/^127\.0\.0\.1:2587 inet/m);
  });

  it('validates with the spec messages, naming the field', async () => {
    const { settings, version } = await get();
    const cases: [object, string, string][] = [
      [{ ...settings, hostname: '' }, 'settings.hostname', 'Hostname is required'],
      [{ ...settings, domain: '' }, 'settings.domain', 'Domain is required'],
      [{ ...settings, maxRecipients: 0 }, 'settings.maxRecipients', 'Max Recipients must be at least 1'],
      [{ ...settings, defaultQuota: 0 }, 'settings.defaultQuota', 'Default Quota must be at least 1'],
      [{ ...settings, maxQuota: 0 }, 'settings.maxQuota', 'Max Quota must be at least 1'],
      [{ ...settings, maxMessageSize: 0 }, 'settings.maxMessageSize', 'Max Message Size must be at least 1'],
      [
        { ...settings, deliveryTimeout: 0 },
        'settings.deliveryTimeout',
        'Delivery Timeout must be at least 1',
      ],
      [{ ...settings, mxRecords: [] }, 'settings.mxRecords', 'At least one MX record is required'],
      [{ ...settings, hostname: 'bad host\nname' }, 'settings.hostname', 'Please enter a valid domain name'],
      [
        { ...settings, defaultQuota: 20000 },
        'settings.defaultQuota',
        'Default Quota must not exceed Max Quota',
      ],
    ];
    for (const [s, field, message] of cases) {
      const res = await save(s, version);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().details).toContainEqual({ field, message });
    }
    expect((await get()).version).toBe(version);
  });

  it('saves, bumps the version, renders the settings into main.cf and Dovecot', async () => {
    const { settings, version } = await get();
    const next = {
      ...settings,
      hostname: 'mx1.example.com',
      domain: 'example.com',
      mxRecords: [
        { priority: 10, host: 'mx1.example.com' },
        { priority: 20, host: 'MX2.example.com' },
      ],
      maxMessageSize: 10,
      maxRecipients: 50,
      allowPlainText: true,
      requireAuth: false,
      enableSpamFilter: false,
      enableVirusScan: false,
    };
    const res = await save(next, version);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.version).toBe(version + 1);
    expect(body.settings.mxRecords[1]).toEqual({ priority: 20, host: 'mx2.example.com' });
    const main = file('/etc/postfix/main.cf');
    expect(main).toContain('myhostname = mx1.example.com');
    expect(main).toContain('message_size_limit = 10485760');
    expect(main).toContain('smtpd_recipient_limit = 50');
    expect(main).toContain('smtpd_sasl_auth_enable = no');
    // DKIM is still on, so the filter (rspamd's milter, local mode's port) stays in the path.
    expect(main).toContain(`smtpd_milters = inet:127.0.0.1:${t.deps.config.ports.milter}`);
    expect(main).toContain('milter_default_action = tempfail');
    expect(file('/etc/rspamd/local.d/actions.conf')).toContain('reject = null;');
    expect(body.filter.virusScan.active).toBe(false);
    expect(main.match(/^myhostname =/gm)).toHaveLength(1);
    expect(file('/etc/dovecot/conf.d/90-mailroom.conf')).toContain('disable_plaintext_auth = no');
    expect((await get()).settings.hostname).toBe('mx1.example.com');
  });

  it('answers 409 to a save based on a stale version and keeps the newer settings', async () => {
    const { settings, version } = await get();
    const res = await save({ ...settings, maxRecipients: 7 }, version - 1);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'The mail settings were changed by someone else. Reload them and try again.',
      details: { version },
    });
    expect((await get()).settings.maxRecipients).toBe(50);
  });

  it('keeps the administrator’s own main.cf lines', async () => {
    const main = t.deps.host.path('/etc/postfix/main.cf');
    writeFileSync(main, readFileSync(main, 'utf8') + 'smtpd_helo_required = yes\n');
    const { settings, version } = await get();
    expect((await save({ ...settings, maxRecipients: 60 }, version)).statusCode).toBe(200);
    expect(file('/etc/postfix/main.cf')).toContain('smtpd_helo_required = yes');
    expect(file('/etc/postfix/main.cf')).toContain('smtpd_recipient_limit = 60');
  });

  it.runIf(HAS_POSTCONF)(
    'a failed check keeps the last good files, saves nothing and reports the output',
    async () => {
      const main = t.deps.host.path('/etc/postfix/main.cf');
      const broken = readFileSync(main, 'utf8') + 'this line is not a parameter\n';
      writeFileSync(main, broken);
      const dovecotBefore = file('/etc/dovecot/conf.d/90-mailroom.conf');
      const { settings, version } = await get();
      const res = await save({ ...settings, allowPlainText: false, maxRecipients: 70 }, version);
      expect(res.statusCode).toBe(422);
      const body = res.json();
      expect(body.code).toBe('CHECK_FAILED');
      expect(body.details.output).toContain("missing '=' after attribute name");
      // The steps as they ran (issue 22 #17): the refused check failed, nothing after it ran.
      type Step = { name: string; state: string; ms: number | null };
      const steps = body.details.steps as Step[];
      const state = (name: string) => steps.find((s) => s.name === name)?.state;
      expect(state('postconf'), JSON.stringify(steps)).toBe('failed');
      expect(state('Save the settings')).toBe('not-run');
      expect(state('Put the files live')).toBe('not-run');
      expect(steps.filter((s) => s.name.startsWith('Reload '))).toEqual([]);
      for (const s of steps) expect(s.state === 'not-run').toBe(s.ms === null);
      expect(file('/etc/postfix/main.cf')).toBe(broken);
      expect(file('/etc/dovecot/conf.d/90-mailroom.conf')).toBe(dovecotBefore);
      const after = await get();
      expect(after.version).toBe(version);
      expect(after.settings.maxRecipients).toBe(60);
      expect(after.check.ok).toBe(false);
      expect(after.check.output).toContain("missing '=' after attribute name");
      // Fixed by the administrator, the next save goes through.
      writeFileSync(main, broken.replace('this line is not a parameter\n', ''));
      const ok = await save({ ...settings, maxRecipients: 70 }, version);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().check.ok).toBe(true);
      const okSteps = ok.json().steps as Step[];
      const okState = (name: string) => okSteps.find((s) => s.name === name)?.state;
      expect(okState('postconf'), JSON.stringify(okSteps)).toBe('passed');
      expect(okState('Save the settings')).toBe('passed');
      expect(okState('Put the files live')).toBe('passed');
      // Only Postfix's files changed: Dovecot's are not checked again, and say so.
      if (okState('doveconf')) expect(okState('doveconf')).toBe('skipped');
      expect(okSteps.some((s) => s.state === 'not-run' || s.state === 'failed')).toBe(false);
    },
  );

  it('gives each mail domain a 2048-bit DKIM key, its DNS text, files, and the DNS facts', async () => {
    const add = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: 'dk@dkim.test', password: 'password-dk' },
    });
    expect(add.statusCode).toBe(200);
    const res = await t.call({ method: 'GET', url: '/api/mail/dkim' });
    expect(res.statusCode).toBe(200);
    const [rec] = res.json();
    expect(rec).toMatchObject({ domain: 'dkim.test', selector: 'mail', name: 'mail._domainkey.dkim.test' });
    expect(rec.txt).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    const { createPublicKey } = await import('node:crypto');
    const der = Buffer.from(rec.txt.split('p=')[1], 'base64');
    const key = createPublicKey({ key: der, format: 'der', type: 'spki' });
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    // The signer's maps name the domain's key file; the private key is in that file only.
    const keyFile = t.deps.host.path('/var/lib/rspamd/dkim/dkim.test.mail.key');
    expect(file('/etc/rspamd/mailroom/dkim-selectors.map')).toContain('dkim.test mail\n');
    expect(file('/etc/rspamd/mailroom/dkim-paths.map')).toContain(`dkim.test ${keyFile}\n`);
    expect(file('/var/lib/rspamd/dkim/dkim.test.mail.key')).toContain('PRIVATE KEY');
    expect(statSync(keyFile).mode & 0o007).toBe(0);
    const rows = await t.deps.database.db.selectFrom('dkim_keys').select('private_key').execute();
    expect(rows.map((r) => r.private_key)).toEqual(['']);
    // The key is kept: a later save does not replace it.
    const { settings, version } = await get();
    await save({ ...settings, maxRecipients: 80 }, version);
    expect((await t.call({ method: 'GET', url: '/api/mail/dkim' })).json()[0].txt).toBe(rec.txt);

    const { listMailDnsFacts } = await import('../../src/features/mail/domains/mail-dns-facts.service.ts');
    const facts = await listMailDnsFacts(t.deps.database.db);
    expect(facts).toContainEqual({
      domain: 'dkim.test',
      mx: [
        { priority: 10, host: 'mx1.example.com' },
        { priority: 20, host: 'mx2.example.com' },
      ],
      mailHost: 'mx1.example.com',
      spf: true,
      dmarc: false,
      dkim: { selector: 'mail', txt: rec.txt },
    });
  });

  it('moves a private key still stored in the database to its file, and replaces a lost one', async () => {
    const { ensureDkimKeys, currentDkimKeys } =
      await import('../../src/features/mail/domains/dkim.service.ts');
    const db = t.deps.database.db;
    const pair = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await db
      .insertInto('mail_domains')
      .values({
        domain: 'legacy.test',
        explicit: 1,
        mailbox_count: 0,
        alias_count: 0,
        created_at: new Date().toISOString(),
      })
      .execute();
    await db
      .insertInto('dkim_keys')
      .values({
        domain: 'legacy.test',
        selector: 'mail',
        private_key: pair.privateKey,
        public_key: pair.publicKey,
        created_at: new Date().toISOString(),
      })
      .execute();
    await ensureDkimKeys(db, t.deps.host);
    expect(file('/var/lib/rspamd/dkim/legacy.test.mail.key')).toBe(pair.privateKey);
    const row = await db
      .selectFrom('dkim_keys')
      .selectAll()
      .where('domain', '=', 'legacy.test')
      .executeTakeFirstOrThrow();
    expect(row.private_key).toBe('');
    expect(row.public_key).toBe(pair.publicKey);
    // A key file that is gone cannot be recovered: a new pair, and DNS gets its public half.
    rmSync(t.deps.host.path('/var/lib/rspamd/dkim/legacy.test.mail.key'));
    expect(await ensureDkimKeys(db, t.deps.host)).toEqual(['legacy.test']);
    const renewed = (await currentDkimKeys(db)).find((k) => k.domain === 'legacy.test')!;
    expect(renewed.public_key).not.toBe(pair.publicKey);
    expect(file('/var/lib/rspamd/dkim/legacy.test.mail.key')).toContain('PRIVATE KEY');
    await db.deleteFrom('dkim_keys').where('domain', '=', 'legacy.test').execute();
    await db.deleteFrom('mail_domains').where('domain', '=', 'legacy.test').execute();
  });

  it('adds and removes domains explicitly; a used domain cannot go', async () => {
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/domains/add', payload: { domain: 'Spare.test' } }))
        .statusCode,
    ).toBe(200);
    const again = await t.call({
      method: 'POST',
      url: '/api/mail/domains/add',
      payload: { domain: 'spare.test' },
    });
    expect(again.statusCode).toBe(409);
    const bad = await t.call({
      method: 'POST',
      url: '/api/mail/domains/add',
      payload: { domain: 'not a domain' },
    });
    expect(bad.json().details).toContainEqual({
      field: 'domain',
      message: 'Please enter a valid domain name',
    });
    expect((await t.call({ method: 'GET', url: '/api/mail/domains' })).json()).toContainEqual(
      expect.objectContaining({ domain: 'spare.test', mailboxes: 0, aliases: 2, explicit: true }),
    );
    const used = await t.call({ method: 'POST', url: '/api/mail/domains/remove/dkim.test' });
    expect(used.statusCode).toBe(409);
    expect((await t.call({ method: 'POST', url: '/api/mail/domains/remove/spare.test' })).statusCode).toBe(
      200,
    );
    expect((await t.call({ method: 'POST', url: '/api/mail/domains/remove/spare.test' })).statusCode).toBe(
      404,
    );
  });

  it('shows recent mail log lines, or says clearly that none is readable', async () => {
    const empty = await t.call({ method: 'GET', url: '/api/mail/logs?lines=5' });
    expect(empty.statusCode).toBe(200);
    const body = empty.json();
    if (body.source === null) {
      expect(body.message).toBe(
        'No mail log is readable on this server (looked for /var/log/mail.log and the systemd journal).',
      );
    }
    const { mkdirSync } = await import('node:fs');
    const log = t.deps.host.path('/var/log/mail.log');
    mkdirSync(t.deps.host.path('/var/log'), { recursive: true });
    writeFileSync(
      log,
      Array.from({ length: 300 }, (_, i) => `line ${i + 1} postfix/smtpd[1]: connect`).join('\n') + '\n',
    );
    const res = await t.call({ method: 'GET', url: '/api/mail/logs?lines=3' });
    expect(res.json()).toEqual({
      source: log,
      lines: [
        'line 298 postfix/smtpd[1]: connect',
        'line 299 postfix/smtpd[1]: connect',
        'line 300 postfix/smtpd[1]: connect',
      ],
      message: null,
    });
    expect((await t.call({ method: 'GET', url: '/api/mail/logs' })).json().lines).toHaveLength(200);
    expect((await t.call({ method: 'GET', url: '/api/mail/logs?lines=0' })).statusCode).toBe(400);
  });

  it('warns in Settings Status when the MX or autoconfig target is not a public host name (issue 22 item 16)', async () => {
    const body = await get();
    const pub = await save(
      {
        ...body.settings,
        hostname: 'mail.example.com',
        mxRecords: [{ priority: 10, host: 'mail.example.com' }],
      },
      body.version,
    );
    expect(pub.statusCode, pub.body).toBe(200);
    expect(pub.json().hostWarnings).toEqual([]);
    const lan = await save(
      {
        ...pub.json().settings,
        hostname: 'mail.localdomain',
        mxRecords: [
          { priority: 10, host: 'mail.localdomain' },
          { priority: 20, host: 'mx.example.com' },
        ],
      },
      pub.json().version,
    );
    expect(lan.statusCode, lan.body).toBe(200);
    expect(lan.json().hostWarnings).toEqual([
      'MX target mail.localdomain is not a public host name (.localdomain names are not resolvable on the public Internet): other servers and clients cannot reach it.',
      'Mail host name (autoconfig and autodiscover target) mail.localdomain is not a public host name (.localdomain names are not resolvable on the public Internet): other servers and clients cannot reach it.',
    ]);
    expect((await get()).hostWarnings).toHaveLength(2);
  });
});
