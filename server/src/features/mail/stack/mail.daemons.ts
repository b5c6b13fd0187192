import path from 'node:path';
import type { Config } from '../../../config.ts';
import { type DaemonSpecOptions, type SpecOrMissing, tcpReady as tcp } from '../../../host/daemon-specs.ts';
import type { Host } from '../../../host/host.ts';
import { MAIL_PATHS } from './mail-paths.layout.ts';
import { RSPAMD_PATHS, rspamdLaunch } from './rspamd.renderer.ts';

/**
 * How Mailroom runs Postfix, Dovecot and rspamd from the rendered files in local mode. Each is a
 * foreground child Mailroom owns, except Postfix, whose `start-fg` wrapper keeps running while
 * master does (master's own pid is in <queue_directory>/pid/master.pid).
 */
export async function mailDaemonSpecs(
  host: Host,
  config: Pick<Config, 'ports'>,
  opts: DaemonSpecOptions = {},
): Promise<SpecOrMissing[]> {
  const p = (s: string) => host.path(s);
  const [postfix, dovecot, doveadm, rspamd] = await Promise.all(
    ['postfix', 'dovecot', 'doveadm', 'rspamd'].map((c) => host.which(c)),
  );
  const postfixDir = p(MAIL_PATHS.postfixDir);
  const dovecotConf = p(MAIL_PATHS.dovecotConf);
  const out: SpecOrMissing[] = [];

  out.push({
    name: 'postfix',
    command: `postfix -c ${postfixDir} start`,
    spec: postfix
      ? {
          name: 'postfix',
          program: postfix,
          args: ['-c', postfixDir, 'start-fg'],
          configPath: path.join(postfixDir, 'main.cf'),
          // Running means greeting: smtpd really starts (its sockets and lock are usable).
          ready: [tcp(config.ports.smtp, '220'), tcp(config.ports.submission, '220')],
          pidFile: path.join(p(MAIL_PATHS.postfixQueue), 'pid', 'master.pid'),
          folders: [
            p(MAIL_PATHS.postfixQueue),
            p(MAIL_PATHS.postfixData),
            path.dirname(p(MAIL_PATHS.mailLog)),
          ],
          reload: { command: postfix, args: ['-c', postfixDir, 'reload'] },
          stop: { command: postfix, args: ['-c', postfixDir, 'stop'] },
          hint: `Postfix logs to ${p(MAIL_PATHS.mailLog)} or syslog; \`postfix -c ${postfixDir} check\` names the problem.`,
        }
      : null,
  });

  out.push({
    name: 'dovecot',
    command: `dovecot -c ${dovecotConf}`,
    spec: dovecot
      ? {
          name: 'dovecot',
          program: dovecot,
          args: ['-F', '-c', dovecotConf],
          configPath: dovecotConf,
          ready: [tcp(config.ports.imap, '* OK')],
          pidFile: path.join(p(MAIL_PATHS.dovecotRun), 'master.pid'),
          // The auth socket Postfix's SASL uses lives in Postfix's private folder.
          folders: [
            p(MAIL_PATHS.dovecotRun),
            p(MAIL_PATHS.dovecotState),
            path.dirname(p(MAIL_PATHS.mailLog)),
            { path: path.join(p(MAIL_PATHS.postfixQueue), 'private'), owner: 'postfix', mode: 0o700 },
          ],
          reload: doveadm ? { command: doveadm, args: ['-c', dovecotConf, 'reload'] } : { signal: 'SIGHUP' },
          hint: `Dovecot logs to ${p(MAIL_PATHS.mailLog)}; \`doveconf -c ${dovecotConf} -n\` checks the files.`,
        }
      : null,
  });

  // The filter's launch line comes from its renderer (stock rspamd.conf plus Mailroom's folders).
  const launch = rspamd ? rspamdLaunch(rspamd, p, path.resolve(host.root) !== '/', !!opts.asRoot) : null;
  const rspamdRun = p(RSPAMD_PATHS.runDir);
  out.push({
    name: 'rspamd',
    command: launch ? [launch.command, ...launch.args].join(' ') : `rspamd -c ${RSPAMD_PATHS.stockConf}`,
    spec: launch
      ? {
          name: 'rspamd',
          program: launch.command,
          args: launch.args,
          // Mailroom's milter settings: without them rspamd would not listen where Postfix asks.
          configPath: p(RSPAMD_PATHS.proxy),
          ready: [tcp(opts.rspamdMilterPort ?? config.ports.milter)],
          // It loads its rules and compiles its regular expressions first: 8–20 s on a busy machine.
          readyTimeoutMs: 120_000,
          // `rspamd -f` writes no pid file ("skip writing pid in no-fork mode"): the child is the
          // main process; its pid is recorded so a leftover instance is ended at the next start.
          recordPid: path.join(rspamdRun, 'mailroom-rspamd.pid'),
          // Its workers run as the signer's user: the folders it writes are theirs.
          folders: launch.writableDirs.map((d) =>
            launch.user ? { path: d, owner: launch.user, mode: 0o750 } : d,
          ),
          reload: { signal: 'SIGHUP' },
          hint: `\`rspamadm configtest -c ${RSPAMD_PATHS.stockConf}\` checks the files; rspamd logs in ${p(RSPAMD_PATHS.logDir)}.`,
        }
      : null,
  });

  return out;
}
