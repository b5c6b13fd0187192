import { runCommand, type RunOptions } from './run-command.ts';

/**
 * apt and dpkg, as Mailroom uses them for updates. `MAILROOM_APT_OPTIONS` adds options to every
 * apt call (whitespace-separated, e.g. `-o Dir::Etc::sourcelist=/tmp/x.list -o Dir::State::Lists=/tmp/lists`);
 * the tests point apt at a local repository that way, never the network.
 */
export interface AptOptions {
  extra: string[];
}

export function aptOptions(env: NodeJS.ProcessEnv = process.env): AptOptions {
  return { extra: (env.MAILROOM_APT_OPTIONS ?? '').split(/\s+/).filter(Boolean) };
}

/** apt's environment, read at each call (PATH included: the tests put a slow apt in front). */
const aptEnv = () => ({
  ...process.env,
  DEBIAN_FRONTEND: 'noninteractive',
  APT_LISTCHANGES_FRONTEND: 'none',
  LC_ALL: 'C',
});

export interface Upgradable {
  package: string;
  suite: string;
  currentVersion: string;
  availableVersion: string;
}

export interface PackageRecord {
  package: string;
  version: string;
  size: number;
  description: string;
  priority: string;
  essential: boolean;
}

/** `apt list --upgradable`: name/suite version arch [upgradable from: old]. */
export function parseUpgradable(text: string): Upgradable[] {
  const out: Upgradable[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-z0-9][a-z0-9+.-]*)\/(\S+)\s+(\S+)\s+\S+\s+\[upgradable from: ([^\]]+)\]/.exec(
      line.trim(),
    );
    if (m) out.push({ package: m[1]!, suite: m[2]!, availableVersion: m[3]!, currentVersion: m[4]! });
  }
  return out;
}

/** `apt-cache show` records (blank-line separated, RFC 822 style). */
export function parseRecords(text: string): PackageRecord[] {
  return text
    .split(/\n\s*\n/)
    .map((block) => {
      const fields = new Map<string, string>();
      let last = '';
      for (const line of block.split('\n')) {
        if (/^\s/.test(line)) continue; // continuation lines (long descriptions)
        const i = line.indexOf(':');
        if (i <= 0) continue;
        last = line.slice(0, i);
        fields.set(last, line.slice(i + 1).trim());
      }
      return fields;
    })
    .filter((f) => f.has('Package'))
    .map((f) => ({
      package: f.get('Package')!,
      version: f.get('Version') ?? '',
      size: Number(f.get('Size') ?? 0),
      description: f.get('Description') ?? f.get('Description-en') ?? '',
      priority: f.get('Priority') ?? 'optional',
      essential: f.get('Essential') === 'yes',
    }));
}

export class Apt {
  constructor(private readonly opts: AptOptions = aptOptions()) {}

  private run(cmd: string, args: string[], o: RunOptions = {}) {
    return runCommand(cmd, [...this.opts.extra, ...args], { env: aptEnv(), ...o });
  }

  update(o: RunOptions = {}) {
    return this.run('apt-get', ['-q', 'update'], o);
  }

  async upgradable(o: RunOptions = {}): Promise<Upgradable[]> {
    const { stdout } = await this.run('apt', ['list', '--upgradable'], o);
    return parseUpgradable(stdout);
  }

  /** Records of exact versions (`name=version`). */
  async show(specs: string[], o: RunOptions = {}): Promise<PackageRecord[]> {
    if (!specs.length) return [];
    // Exit 100 when one spec is unknown; the others are still printed.
    const { stdout } = await this.run('apt-cache', ['show', '--no-all-versions', ...specs], {
      ...o,
      okCodes: [0, 100],
    });
    return parseRecords(stdout);
  }

  /** What `apt-get remove` would remove (simulated). */
  async simulateRemove(pkg: string): Promise<string[]> {
    const { stdout } = await this.run('apt-get', ['-s', 'remove', pkg], { okCodes: [0, 100] });
    return stdout
      .split('\n')
      .map((l) => /^Remv (\S+)/.exec(l)?.[1])
      .filter((x): x is string => !!x);
  }

  install(packages: string[], o: RunOptions = {}) {
    return this.run(
      'apt-get',
      [
        '-y',
        '-q',
        '--only-upgrade',
        '-o',
        'Dpkg::Options::=--force-confdef',
        '-o',
        'Dpkg::Options::=--force-confold',
        'install',
        ...packages,
      ],
      o,
    );
  }

  remove(pkg: string, o: RunOptions = {}) {
    return this.run('apt-get', ['-y', '-q', 'remove', pkg], o);
  }
}

/** The installed version of a package per dpkg, or null. */
export async function installedVersion(pkg: string): Promise<string | null> {
  const r = await runCommand('dpkg-query', ['-W', '-f=${Status}\t${Version}', pkg], { okCodes: [0, 1] });
  const [status, version] = r.stdout.split('\t');
  return status?.endsWith(' installed') ? (version ?? null) : null;
}
