import path from 'node:path';
import { type ConfigCheck } from '@mailroom/contract/mail';
import { removeTree } from '../../../host/disk-files.ts';
import { type Host, type StagedFile } from '../../../host/host.ts';
import { setOwner } from '../../../host/ownership.ts';
import { makeScratchDir, writeScratchFile } from '../../../host/scratch.ts';
import { groupId, inspectMailSetup } from '../settings/mail-setup.service.ts';
import { type MailDbConn } from './mail-db.connection.ts';
import { checkStagedRspamd } from './mail-filter.service.ts';
import { MAIL_DB_GROUP, MAIL_PATHS } from './mail-paths.layout.ts';
import { postfixTables } from './mail-render.service.ts';
import { postfixMapType } from './postfix.renderer.ts';
import { RSPAMD_PATHS } from './rspamd.renderer.ts';

const failed = (text: string) => /\b(fatal|error)\b/i.test(text);

/**
 * Running as root, the staged files that daemons read after dropping privileges get their group:
 * Postfix's proxymap reads the PostgreSQL tables (they hold the password) as postfix, Dovecot's
 * dict reads its connect line as dovecot. Other users still cannot read them.
 */
async function ownStagedFiles(host: Host, conn: MailDbConn, staged: StagedFile[]): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const groups: [string, string][] = [[MAIL_PATHS.dovecotDict, 'dovecot']];
  if (conn.dialect === 'postgres')
    for (const [file] of postfixTables(conn)) groups.push([file, MAIL_DB_GROUP]);
  for (const [file, group] of groups) {
    const f = staged.find((x) => x.target === host.path(file));
    const gid = await groupId(host, group);
    if (f && gid !== null) await setOwner(f.staged, 0, gid);
  }
}

/**
 * Postfix writes a refusal to standard error only when that is a terminal (else to its log):
 * for the words, run the check again on a pseudo-terminal (util-linux `script`).
 */
async function postfixCheckReason(host: Host, dir: string, command: string): Promise<string | null> {
  const script = await host.which('script');
  const postfix = await host.which('postfix');
  if (!script || !postfix || !/^[\w./-]+$/.test(dir)) return null;
  const r = await host.run(script, ['-qec', `${postfix} -c ${dir} ${command}`, '/dev/null']);
  return r.stdout.replace(/\r/g, '').trim() || null;
}

/**
 * What `postfix check` refuses, without its warnings pass: `postfix check` is the `postfix`
 * command's own checks (every parameter, maillog_file against maillog_file_prefixes), then
 * postfix-script's `check-fatal` (queue folders, master.cf, the postlog service, postsuper) and
 * `check-warn`, which only logs ownership/permission warnings over the whole tree (some forty
 * `find` runs) and always exits 0: its words never reached this check. So `check-fatal` refuses
 * exactly what `check` refuses, in about half the time here. A Postfix whose postfix-script has no
 * `check-fatal` (it answers "unknown command") gets the full `check`. Null: Postfix would start.
 */
export async function postfixStartRefusal(host: Host, postfix: string, dir: string): Promise<string | null> {
  // Postfix's own words ("postfix: fatal: ..."), not the runner's "Command failed: ... check-fatal".
  const fatal = /\bfatal:/i;
  for (const command of ['check-fatal', 'check']) {
    const r = await host.run(postfix, ['-c', dir, command]);
    if (r.code === 0 && !fatal.test(r.stderr)) return null;
    const said = fatal.test(r.stderr) ? r.stderr.trim() : await postfixCheckReason(host, dir, command);
    if (command === 'check-fatal' && said && /unknown command/i.test(said)) continue;
    return said || `exit ${r.code} (Postfix would not start; its log says why)`;
  }
  return null;
}

/** `proxy:` tables main.cf uses that its proxy_read_maps leaves out (proxymap would refuse them). */
async function unlistedProxyTables(host: Host, postconf: string, dir: string): Promise<string[]> {
  const used = await host.run(postconf, [
    '-c',
    dir,
    '-xh',
    'virtual_mailbox_domains',
    'virtual_mailbox_maps',
    'virtual_alias_maps',
    'smtpd_sender_login_maps',
  ]);
  const allowed = await host.run(postconf, ['-c', dir, '-xh', 'proxy_read_maps']);
  const names = (text: string) => text.split(/[\s,]+/).filter((n) => n.startsWith('proxy:'));
  const ok = new Set(names(allowed.stdout));
  return names(used.stdout).filter((n) => !ok.has(n));
}

/**
 * Proves the staged files with the real tools: `postconf -n`/`-M` on a copy of main.cf and
 * master.cf, that proxy_read_maps admits every `proxy:` table, `postfix check` on the copy (as
 * root: what `postfix start` refuses, such as a maillog_file outside maillog_file_prefixes),
 * `postmap -q` through each lookup table (which opens the database and runs the query), and
 * `doveconf -n` on Mailroom's Dovecot files. What the daemons need from the machine (the vmail
 * user, folders, database permissions, packages) is named with its fix. Answers null when none
 * of the tools is installed.
 */
export async function checkStagedMailFiles(
  host: Host,
  conn: MailDbConn,
  staged: StagedFile[],
  onStep?: CheckStepListener,
): Promise<ConfigCheck | null> {
  await ownStagedFiles(host, conn, staged);
  const stagedOf = (systemPath: string) => staged.find((f) => f.target === host.path(systemPath));
  const tmp = await makeScratchDir('mailroom-mail-check-');
  // The checks are independent: they run at once (issue 22 #17), each reporting its own step, and
  // their words are put together in a fixed order.
  interface Said {
    ran: boolean;
    ok: boolean;
    lines: string[];
    /** The step's tool is missing: nothing was checked. */
    skipped?: boolean;
  }
  const step = async (name: string, work: () => Promise<Said>): Promise<Said> => {
    onStep?.({ name, state: 'running' });
    try {
      const r = await work();
      onStep?.({
        name,
        state: !r.ran || r.skipped ? 'skipped' : r.ok ? 'passed' : 'failed',
        detail: r.lines.join('\n'),
      });
      return r;
    } catch (err) {
      onStep?.({ name, state: 'failed', detail: String(err) });
      throw err;
    }
  };
  try {
    const checks: Promise<Said>[] = [];
    const [postconf, postmap, doveconf, postfix] = await Promise.all([
      host.which('postconf'),
      host.which('postmap'),
      host.which('doveconf'),
      host.which('postfix'),
    ]);
    // A daemon whose files (and the TLS files it reads) are all unchanged is not checked again:
    // the live files were proved when they were written (issue 22 #17). The pipeline flags each
    // staged file with `changed`; a caller that does not is treated as all changed.
    const changed = (f: StagedFile) => (f as StagedFile & { changed?: boolean }).changed !== false;
    const tlsChanged = [MAIL_PATHS.tlsCert, MAIL_PATHS.tlsKey].some((p) => {
      const f = stagedOf(p);
      return f ? changed(f) : false;
    });
    const within = (dir: string) => (f: StagedFile) => f.target.startsWith(`${host.path(dir)}/`);
    const postfixChanged = tlsChanged || staged.some((f) => within(MAIL_PATHS.postfixDir)(f) && changed(f));
    const dovecotChanged = tlsChanged || staged.some((f) => within('/etc/dovecot')(f) && changed(f));
    const unchanged = (what: string): Said => ({
      ran: true,
      ok: true,
      lines: [`${what}: files unchanged, not checked again`],
      skipped: true,
    });
    const main = stagedOf(MAIL_PATHS.postfixMain);
    const master = stagedOf(MAIL_PATHS.postfixMaster);
    const postfixFiles = postconf && main && master && postfixChanged;
    if (postconf && main && master && !postfixChanged)
      checks.push(step('postconf', () => Promise.resolve(unchanged('Postfix'))));
    if (postfixFiles) {
      // Already cool (HostFile.backdate): else each Postfix program pauses up to 2 s on them.
      await writeScratchFile(path.join(tmp, 'main.cf'), main.content, undefined, { backdate: true });
      await writeScratchFile(path.join(tmp, 'master.cf'), master.content, undefined, { backdate: true });
    }
    if (postfixFiles) {
      checks.push(
        step('postconf', async () => {
          const lines: string[] = [];
          let ok = true;
          let parsed = true;
          const runs = await Promise.all(['-n', '-M'].map((flag) => host.run(postconf, ['-c', tmp, flag])));
          ['-n', '-M'].forEach((flag, i) => {
            const r = runs[i]!;
            // postconf opens the lookup tables' files; on the first render they are still staged.
            const said = r.stderr
              .split('\n')
              .filter((l) => !staged.some((f) => l.includes(`"${f.target}": No such file`)))
              .join('\n')
              .trim();
            const bad = r.code !== 0 || failed(said);
            if (bad) {
              parsed = false;
              ok = false;
              lines.push(`postconf ${flag}: ${said || `exit ${r.code}`}`);
            } else if (said) lines.push(`postconf ${flag}: ${said}`);
          });
          if (parsed) lines.push('postconf: main.cf and master.cf parsed');
          const unlisted = await unlistedProxyTables(host, postconf, tmp);
          if (unlisted.length) {
            ok = false;
            lines.push(
              `proxy_read_maps does not list ${unlisted.join(', ')}: add them (or remove proxy_read_maps)`,
            );
          }
          return { ran: true, ok, lines };
        }),
      );
      if (postfix && process.getuid?.() === 0)
        checks.push(
          step('postfix check', async () => {
            const refusal = await postfixStartRefusal(host, postfix, tmp);
            if (refusal) return { ran: true, ok: false, lines: [`postfix check: ${refusal}`] };
            return { ran: true, ok: true, lines: ['postfix check: Postfix would start on these files'] };
          }),
        );
    } else if (!postconf)
      checks.push(
        Promise.resolve({
          ran: false,
          ok: true,
          lines: ['postconf not installed (Debian package: postfix): Postfix files not checked'],
        }),
      );

    if (postmap) {
      for (const [file] of postfixTables(conn)) {
        const f = stagedOf(file);
        // A lookup table's own file (its query and database) unchanged: proved when it was written.
        if (!f || !changed(f)) continue;
        checks.push(
          step(`postmap ${path.basename(file)}`, async () => {
            const r = await host.run(postmap, [
              '-q',
              'mailroom-check@mailroom.invalid',
              `${postfixMapType(conn)}:${f.staged}`,
            ]);
            return (r.code !== 0 && r.code !== 1) || failed(r.stderr)
              ? {
                  ran: true,
                  ok: false,
                  lines: [`postmap ${path.basename(file)}: ${r.stderr.trim() || `exit ${r.code}`}`],
                }
              : { ran: true, ok: true, lines: [`postmap ${path.basename(file)}: lookup ran`] };
          }),
        );
      }
    } else
      checks.push(
        Promise.resolve({
          ran: false,
          ok: true,
          lines: ['postmap not installed (Debian package: postfix): lookup tables not checked'],
        }),
      );

    const mailroomConf = stagedOf(MAIL_PATHS.dovecotMailroom);
    const servicesConf = stagedOf(MAIL_PATHS.dovecotServices);
    if (doveconf && mailroomConf && servicesConf && !dovecotChanged)
      checks.push(step('doveconf', () => Promise.resolve(unchanged('Dovecot'))));
    else if (doveconf && mailroomConf && servicesConf) {
      checks.push(
        step('doveconf', async () => {
          const wrapper = path.join(tmp, 'dovecot-check.conf');
          // doveconf reads `ssl_cert = <file`: a certificate staged with this set is read from its staged copy.
          let mailroomText = mailroomConf.content;
          for (const p of [MAIL_PATHS.tlsCert, MAIL_PATHS.tlsKey]) {
            const f = stagedOf(p);
            if (f) mailroomText = mailroomText.split(`<${f.target}\n`).join(`<${f.staged}\n`);
          }
          const mailroomCopy = path.join(tmp, '90-mailroom.conf');
          await writeScratchFile(mailroomCopy, mailroomText);
          await writeScratchFile(
            wrapper,
            `protocols = imap lmtp\n!include ${mailroomCopy}\n!include ${servicesConf.staged}\n`,
          );
          const r = await host.run(doveconf, ['-c', wrapper, '-n']);
          return r.code !== 0 || failed(r.stderr)
            ? { ran: true, ok: false, lines: [`doveconf: ${r.stderr.trim() || `exit ${r.code}`}`] }
            : { ran: true, ok: true, lines: ['doveconf: Dovecot settings parsed'] };
        }),
      );
    } else if (!doveconf)
      checks.push(
        Promise.resolve({
          ran: false,
          ok: true,
          lines: ['doveconf not installed (Debian package: dovecot-core): Dovecot files not checked'],
        }),
      );

    const localD = path.dirname(host.path(RSPAMD_PATHS.proxy));
    const filterFiles = staged.filter((f) => path.dirname(f.target) === localD);
    if (filterFiles.length && !filterFiles.some(changed))
      checks.push(step('rspamadm configtest', () => Promise.resolve(unchanged('rspamd'))));
    else if (filterFiles.length)
      checks.push(
        step('rspamadm configtest', async () => {
          const filter = await checkStagedRspamd(host, staged);
          if (!filter) return { ran: false, ok: true, lines: [] };
          // Not installed: nothing was checked (the step says skipped), the words are kept.
          const skipped = filter.ok && /not installed/.test(filter.output);
          return { ran: true, ok: filter.ok, lines: [filter.output], ...(skipped ? { skipped } : {}) };
        }),
      );
    const setup = inspectMailSetup(host, conn).then((problems) => ({
      ran: false,
      ok: true,
      lines: problems.map((p) => `missing: ${p.what}; fix: ${p.fix}`),
    }));
    const results = [...(await Promise.all(checks)), await setup];
    const ran = results.some((r) => r.ran);
    return ran
      ? { ok: results.every((r) => r.ok), output: results.flatMap((r) => r.lines).join('\n') }
      : null;
  } finally {
    await removeTree(tmp);
  }
}

/** One check step as it runs (the mail settings save shows them). */
export interface CheckStepEvent {
  name: string;
  state: 'running' | 'passed' | 'failed' | 'skipped';
  detail?: string;
}
export type CheckStepListener = (e: CheckStepEvent) => void;
