import os from 'node:os';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { isEntryPoint } from './host/entry-point.ts';
import { ensureMailRole, mailRoleUrl } from './db/mail-role.ts';
import { migrateToLatest } from './db/migrate.ts';
import { addAdmin, listAdmins, removeAdmin, setAdminPassword } from './features/auth/admin.service.ts';
import { mailDbConn } from './features/mail/stack/mail-db.connection.ts';
import { inspectMailSetup, runMailSetup } from './features/mail/settings/mail-setup.service.ts';
import { Host } from './host/host.ts';
import { recordAudit } from './http/audit-log.repository.ts';
import { AppError } from './http/errors.ts';
import { buildOpenApiDocument, openApiText } from './openapi.ts';

export const USAGE = `Usage: mailroom <command>

Commands:
  admin add <email> [--password P]     create an administrator
            [--domain D ...]           ... or a domain administrator of the domains D (repeatable)
  admin passwd <email> [--password P]  change a password (signs that administrator out everywhere)
  admin list                           list administrators
  admin remove <email>                 remove an administrator (never the last one)
  migrate                              run the database migrations
  db mail-role [role] [--password P]   PostgreSQL: create or update the role Postfix and Dovecot use
                                       (read-only lookup views); prints its MAILROOM_MAIL_DB_URL
  setup                                as root: the vmail user/group, the mail folder and the
                                       database permissions Postfix and Dovecot need (idempotent)
  openapi                              print the OpenAPI document of the API

The password comes from --password, else MAILROOM_ADMIN_PASSWORD, else standard input (one line);
the CLI never prompts. It uses the server's settings: MAILROOM_DATA_DIR, DATABASE_URL, ...
`;

/** Exit codes: 0 done, 1 the action was refused or failed, 2 bad usage or bad settings. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** All of standard input, or null when it is a terminal (the CLI never prompts). */
  readStdin(): Promise<string | null>;
  env: NodeJS.ProcessEnv;
}

class UsageError extends Error {}

interface Parsed {
  positional: string[];
  password: string | undefined;
  /** --domain D (repeatable): `admin add` makes a domain administrator of these domains. */
  domains: string[];
}

function parseArgs(args: string[]): Parsed {
  const positional: string[] = [];
  let password: string | undefined;
  const domains: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--domain') {
      if (i + 1 >= args.length) throw new UsageError('--domain needs a value');
      domains.push(args[++i]!);
    } else if (a.startsWith('--domain=')) {
      domains.push(a.slice('--domain='.length));
    } else if (a === '--password') {
      if (i + 1 >= args.length) throw new UsageError('--password needs a value');
      password = args[++i];
    } else if (a.startsWith('--password=')) {
      password = a.slice('--password='.length);
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option ${a}`);
    } else {
      positional.push(a);
    }
  }
  return { positional, password, domains };
}

async function passwordFrom(parsed: Parsed, io: CliIo): Promise<string> {
  if (parsed.password !== undefined) return parsed.password;
  if (io.env.MAILROOM_ADMIN_PASSWORD) return io.env.MAILROOM_ADMIN_PASSWORD;
  const input = await io.readStdin();
  if (input === null) {
    throw new UsageError(
      'no password given: use --password, set MAILROOM_ADMIN_PASSWORD, or pipe it on standard input',
    );
  }
  const line = input.split(/\r?\n/)[0] ?? '';
  if (!line) throw new UsageError('the password read from standard input is empty');
  return line;
}

function oneEmail(parsed: Parsed, command: string): string {
  const [email, ...extra] = parsed.positional;
  if (!email) throw new UsageError(`${command} needs an email address`);
  if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);
  return email;
}

async function withDatabase<T>(io: CliIo, work: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env);
  const database = openDatabase(config);
  try {
    await migrateToLatest(database.db);
    return await work(database);
  } finally {
    await database.close();
  }
}

/** Who ran the command, for the audit log (`cli:root`); some containers have no user entry. */
function cliActor(): string {
  try {
    return `cli:${os.userInfo().username}`;
  } catch {
    return `cli:uid-${process.getuid?.() ?? 'unknown'}`;
  }
}

async function adminCommand(sub: string | undefined, rest: string[], io: CliIo): Promise<void> {
  const parsed = parseArgs(rest);
  switch (sub ?? '') {
    case 'add': {
      const email = oneEmail(parsed, 'admin add');
      const password = await passwordFrom(parsed, io);
      const domains = parsed.domains.map((d) => d.trim().toLowerCase());
      if (domains.some((d) => !/^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(d)))
        throw new UsageError('--domain needs a domain name such as example.com');
      const role = domains.length ? ('domain-admin' as const) : ('admin' as const);
      await withDatabase(io, async ({ db }) => {
        await addAdmin(db, email, password, { role, domains });
        await recordAudit(db, {
          actor: cliActor(),
          action: 'auth.admin.add',
          target: email.trim().toLowerCase(),
          outcome: 'success',
          ...(domains.length ? { details: { role, domains } } : {}),
        });
      });
      io.out(
        domains.length
          ? `Domain administrator ${email.trim().toLowerCase()} of ${domains.join(', ')} created.\n`
          : `Administrator ${email.trim().toLowerCase()} created.\n`,
      );
      return;
    }
    case 'passwd': {
      const email = oneEmail(parsed, 'admin passwd');
      const password = await passwordFrom(parsed, io);
      await withDatabase(io, async ({ db }) => {
        await setAdminPassword(db, email, password);
        await recordAudit(db, {
          actor: cliActor(),
          action: 'auth.admin.passwd',
          target: email.trim().toLowerCase(),
          outcome: 'success',
        });
      });
      io.out(`Password of ${email.trim().toLowerCase()} changed; its sessions were signed out.\n`);
      return;
    }
    case 'list': {
      if (parsed.positional.length || parsed.password !== undefined)
        throw new UsageError('admin list takes no arguments');
      const admins = await withDatabase(io, async ({ db }) => listAdmins(db));
      if (!admins.length) io.err('No administrators yet.\n');
      for (const a of admins)
        io.out(
          `${a.email}\t${a.created_at}${a.role === 'admin' ? '' : `\t${a.role}\t${a.domains.join(',')}`}\n`,
        );
      return;
    }
    case 'remove': {
      const email = oneEmail(parsed, 'admin remove');
      if (parsed.password !== undefined) throw new UsageError('admin remove takes no password');
      await withDatabase(io, async ({ db }) => {
        await removeAdmin(db, email);
        await recordAudit(db, {
          actor: cliActor(),
          action: 'auth.admin.remove',
          target: email.trim().toLowerCase(),
          outcome: 'success',
        });
      });
      io.out(`Administrator ${email.trim().toLowerCase()} removed.\n`);
      return;
    }
    default:
      throw new UsageError(
        sub ? `unknown admin command ${sub}` : 'admin needs a command: add, passwd, list or remove',
      );
  }
}

async function dbCommand(sub: string | undefined, rest: string[], io: CliIo): Promise<void> {
  if (sub !== 'mail-role')
    throw new UsageError(sub ? `unknown db command ${sub}` : 'db needs a command: mail-role');
  const parsed = parseArgs(rest);
  const [role, ...extra] = parsed.positional;
  if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);
  const config = loadConfig(io.env);
  if (!config.databaseUrl || config.databaseUrl.startsWith('sqlite:'))
    throw new UsageError('db mail-role is for PostgreSQL: DATABASE_URL must be postgres://…');
  const databaseUrl = config.databaseUrl;
  const result = await withDatabase(io, async ({ db }) => {
    try {
      const r = await ensureMailRole(db, { role, password: parsed.password });
      await recordAudit(db, {
        actor: cliActor(),
        action: 'db.mail_role',
        target: r.role,
        outcome: 'success',
      });
      return r;
    } catch (err) {
      if ((err as { code?: string }).code === '42501')
        throw new Error(
          `${(err as Error).message}: run it once with a DATABASE_URL whose role may create roles ` +
            '(CREATEROLE or superuser), e.g. as the postgres user over the local socket',
        );
      throw err;
    }
  });
  io.out(
    `Role ${result.role} ${result.created ? 'created' : 'updated'}: it reads ${result.views.join(', ')} ` +
      '(and updates the quota counters), nothing else.\n' +
      'Put this line in the settings of the service (/etc/mailroom/mailroom.env), restart Mailroom and save ' +
      'the mail settings once so Postfix and Dovecot connect as that role:\n' +
      `MAILROOM_MAIL_DB_URL=${mailRoleUrl(databaseUrl, result.role, result.password)}\n`,
  );
}

/** `mailroom setup`: makes the machine ready for the rendered mail files and says what it did. */
async function setupCommand(io: CliIo): Promise<number> {
  const config = loadConfig(io.env);
  return withDatabase(io, async (database) => {
    const host = new Host(config.hostRoot, false);
    const conn = mailDbConn(database, config.mailDbUrl);
    const steps = await runMailSetup(host, conn);
    for (const s of steps) io.out(`${s.result.padEnd(8)} ${s.what}: ${s.detail}\n`);
    const missing = await inspectMailSetup(host, conn);
    for (const m of missing) io.err(`missing  ${m.what}; fix: ${m.fix}\n`);
    if (!missing.length) io.out('The mail server has what it needs from this machine.\n');
    return steps.some((s) => s.result === 'failed' || s.result === 'skipped') || missing.length
      ? EXIT.failed
      : EXIT.ok;
  });
}

/** Runs one command and answers its exit code; never throws. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command ?? '') {
      case 'admin':
        await adminCommand(rest[0], rest.slice(1), io);
        return EXIT.ok;
      case 'db':
        await dbCommand(rest[0], rest.slice(1), io);
        return EXIT.ok;
      case 'migrate': {
        if (rest.length) throw new UsageError('migrate takes no arguments');
        const config = loadConfig(io.env);
        const database = openDatabase(config);
        try {
          const names = await migrateToLatest(database.db);
          io.out(names.length ? `Applied ${names.join(', ')}.\n` : 'The database is up to date.\n');
        } finally {
          await database.close();
        }
        return EXIT.ok;
      }
      case 'setup':
        if (rest.length) throw new UsageError('setup takes no arguments');
        return await setupCommand(io);
      case 'openapi':
        if (rest.length) throw new UsageError('openapi takes no arguments');
        io.out(openApiText(await buildOpenApiDocument()));
        return EXIT.ok;
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return EXIT.ok;
      default:
        throw new UsageError(command ? `unknown command ${command}` : 'no command given');
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`mailroom: ${err.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (err instanceof ConfigError) {
      io.err(`mailroom: ${err.message}\n`);
      return EXIT.usage;
    }
    if (err instanceof AppError) {
      io.err(`mailroom: ${err.message}\n`);
      return EXIT.failed;
    }
    io.err(`mailroom: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.failed;
  }
}

function readAll(stream: NodeJS.ReadStream): Promise<string | null> {
  if (stream.isTTY) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    let data = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (data += chunk));
    stream.on('end', () => resolve(data));
    stream.on('error', reject);
  });
}

const invokedDirectly = isEntryPoint(import.meta.filename);

if (invokedDirectly) {
  const code = await runCli(process.argv.slice(2), {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    readStdin: () => readAll(process.stdin),
    env: process.env,
  });
  // exitCode, not exit(): a large answer piped to a file must be flushed first.
  process.exitCode = code;
}
