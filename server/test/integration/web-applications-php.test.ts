import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { phpStackHere, request, startWithLocalApache } from './web-apache-helpers.ts';

const haveGit = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;
if (!haveGit) skipLoudly('git (Debian package git) is missing: PHP applications are not deployed for real');
const here = phpStackHere('PHP, WordPress and Roundcube applications (their own PHP-FPM pool)') && haveGit;

/** A git repository made by the test; `commit` writes (or, with null, deletes) the files given. */
function makeRepo(prefix: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  return {
    dir,
    commit(files: Record<string, string>, message: string): string {
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), text);
      }
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', dir, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
          encoding: 'utf8',
        });
      git('add', '-A');
      git('commit', '-q', '-m', message);
      return git('rev-parse', 'HEAD').trim();
    },
  };
}

/** A plain PHP app: "<version> <user> <GREETING> <memory_limit>". */
const indexPhp = (version: string) =>
  `<?php\necho '${version} ' . posix_getpwuid(posix_geteuid())['name'] . ' ' . getenv('GREETING') . ' ' . ini_get('memory_limit');\n`;
const healthPhp = (code: number) => `<?php\nhttp_response_code(${code});\necho 'health ${code}';\n`;

/** WordPress's layout, in miniature: the sample config, a front controller, an upload script. */
const wpSample = `<?php
define( 'DB_NAME', 'database_name_here' );
define( 'DB_USER', 'username_here' );
define( 'DB_PASSWORD', 'password_here' );
define( 'DB_HOST', 'localhost' );
define( 'AUTH_KEY',         'put your unique phrase here' );
define( 'SECURE_AUTH_KEY',  'put your unique phrase here' );
`;
const wpIndex = (version: string, status = 200) =>
  `<?php\nrequire __DIR__ . '/wp-config.php';\nhttp_response_code(${status});\necho 'wp ${version} db=' . DB_NAME . ' host=' . DB_HOST . ' uri=' . $_SERVER['REQUEST_URI'];\n`;
const wpUpload = `<?php\n$n = basename($_GET['n']);\nfile_put_contents(__DIR__ . '/wp-content/uploads/' . $n, 'uploaded ' . $n);\necho 'stored ' . $n;\n`;

describe.skipIf(!here)('web applications: PHP types served by Apache through their own PHP-FPM pool', () => {
  let t: TestContext;
  let httpPort: number;
  const repos: string[] = [];
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({
      method,
      url: `/api/${url}`,
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });
  const waitJob = async (jobId: number) => {
    for (let i = 0; i < 1200; i++) {
      const j = (await call('GET', `jobs/${jobId}`)).json();
      if (j.state !== 'running' && j.state !== 'queued') return j;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('job did not end');
  };
  const deploy = async (name: string) => {
    const res = await call('POST', `web/applications/deploy/${name}`);
    expect(res.statusCode, res.body).toBe(202);
    return waitJob(res.json().jobId);
  };
  const rollback = async (name: string) => {
    const res = await call('POST', `web/applications/rollback/${name}`);
    expect(res.statusCode, res.body).toBe(202);
    return waitJob(res.json().jobId);
  };
  const logText = async (name: string, jobId: number) =>
    (await call('GET', `web/applications/${name}/deploy-log?jobId=${jobId}`))
      .json()
      .lines.map((l: { text: string }) => l.text)
      .join('\n');
  /** Requests the site non-stop while `work` runs (and 1 s after): the statuses seen. */
  const underLoad = async (domain: string, work: () => Promise<unknown>) => {
    const statuses = new Map<number, number>();
    let stop = false;
    let requests = 0;
    const loop = (async () => {
      while (!stop) {
        const x = await request(httpPort, domain).catch(() => ({ status: 0 }));
        requests++;
        statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
      }
    })();
    const out = await work();
    await new Promise((r) => setTimeout(r, 1000));
    stop = true;
    await loop;
    return { out, statuses: [...statuses], requests };
  };

  beforeAll(async () => {
    ({ t, httpPort } = await startWithLocalApache(30_000));
  }, 60_000);
  afterAll(async () => {
    for (const name of ['phpt', 'wpt', 'dpt', 'rct'])
      await call('POST', `web/applications/remove/${name}`, { keepFiles: false }).catch(() => undefined);
    await t?.close();
    for (const r of repos) rmSync(r, { recursive: true, force: true });
  });

  it('PHP: deploy → answers through Apache as the app user with its memory limit; a second release under a client loop: zero non-2xx; a failing health check keeps the old release; rollback restores the old body and environment; stop → 503, start → 200', async () => {
    const repo = makeRepo('mailroom-php-repo-');
    repos.push(repo.dir);
    repo.commit({ 'index.php': indexPhp('v1'), 'health.php': healthPhp(200) }, 'v1');
    const created = await call('POST', 'web/applications/add', {
      name: 'phpt',
      domain: 'phpt.example.com',
      type: 'PHP',
      version: '1',
      deploymentPath: '/var/www/apps/phpt',
      repository: repo.dir,
      healthCheckPath: '/health.php',
      healthCheckInterval: 3,
      healthCheckTimeout: 2,
      memoryLimit: '96Mi',
      customEnvironmentVariables: { GREETING: 'hello' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const first = await deploy('phpt');
    expect(first.state, JSON.stringify(first)).toBe('succeeded');
    expect(await logText('phpt', first.id)).toContain(
      'Healthy through the PHP-FPM pool (/health.php: HTTP 200)',
    );
    let r = await request(httpPort, 'phpt.example.com');
    expect(r.status, r.body).toBe(200);
    expect(r.body).toBe('v1 mr-app-phpt hello 96M');
    expect((await call('GET', 'web/applications/phpt')).json()).toMatchObject({
      status: 'active',
      pid: null,
    });

    // A second release while a client requests the site non-stop: no request fails, then v2.
    repo.commit({ 'index.php': indexPhp('v2') }, 'v2');
    const second = await underLoad('phpt.example.com', () => deploy('phpt'));
    console.log(
      `php (loaded machine): requests during the deploy ${second.requests}, statuses ${JSON.stringify(second.statuses)}`,
    );
    expect((second.out as { state: string }).state).toBe('succeeded');
    console.log(
      `php deploy timings (loaded machine), seconds: ${JSON.stringify((second.out as { result: { timings: object } }).result.timings)}`,
    );
    expect(second.statuses.map(([s]) => s)).toEqual([200]);
    expect(second.requests).toBeGreaterThan(20);
    expect((await request(httpPort, 'phpt.example.com')).body).toBe('v2 mr-app-phpt hello 96M');

    // A release whose health check answers 500 never serves: the old one does, the app shows error.
    repo.commit({ 'index.php': indexPhp('v3'), 'health.php': healthPhp(500) }, 'v3');
    const bad = await deploy('phpt');
    expect(bad.state).toBe('failed');
    expect(await logText('phpt', bad.id)).toContain(
      'The new release did not answer 2xx on /health.php through its PHP-FPM pool within 5 s (last: HTTP 500); the previous release keeps serving',
    );
    expect((await request(httpPort, 'phpt.example.com')).body).toBe('v2 mr-app-phpt hello 96M');
    expect((await call('GET', 'web/applications/phpt')).json().status).toBe('error');

    // A new environment value with a new release; rollback brings the old body and the old value back.
    const app = (await call('GET', 'web/applications/phpt')).json();
    const upd = await call('POST', 'web/applications/update/phpt', {
      ...created.json().application,
      customEnvironmentVariables: { GREETING: 'bye' },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(app.customEnvironmentVariables).toEqual({ GREETING: 'hello' });
    repo.commit({ 'index.php': indexPhp('v4'), 'health.php': healthPhp(200) }, 'v4');
    expect((await deploy('phpt')).state).toBe('succeeded');
    expect((await request(httpPort, 'phpt.example.com')).body).toBe('v4 mr-app-phpt bye 96M');
    const back = await underLoad('phpt.example.com', () => rollback('phpt'));
    expect((back.out as { state: string }).state).toBe('succeeded');
    expect(back.statuses.map(([s]) => s)).toEqual([200]);
    expect((await request(httpPort, 'phpt.example.com')).body).toBe('v2 mr-app-phpt hello 96M');

    // Stop: Apache answers 503; start: 200 again.
    const stopped = await call('POST', 'web/applications/stop/phpt');
    expect(stopped.statusCode, stopped.body).toBe(200);
    r = await request(httpPort, 'phpt.example.com');
    expect(r.status).toBe(503);
    const started = await call('POST', 'web/applications/start/phpt');
    expect(started.statusCode, started.body).toBe(200);
    r = await request(httpPort, 'phpt.example.com');
    expect(r.status).toBe(200);
    expect(r.body).toBe('v2 mr-app-phpt hello 96M');

    // Health checks keep running through the pool: the live release failing its check is an error
    // (a system alert), answering again makes it active.
    const live = (await call('GET', 'web/applications/phpt')).json();
    const rel = (await call('GET', `web/applications/phpt/releases/${live.currentReleaseId}`)).json();
    const health = t.deps.host.path(`${rel.path}/health.php`);
    const statusBecomes = async (want: string) => {
      const until = Date.now() + 15_000;
      let now = '';
      while (Date.now() < until) {
        now = (await call('GET', 'web/applications/phpt')).json().status;
        if (now === want) return now;
        await new Promise((res) => setTimeout(res, 250));
      }
      return now;
    };
    writeFileSync(health, healthPhp(503));
    expect(await statusBecomes('error')).toBe('error');
    expect((await call('GET', 'web/applications/phpt')).json().statusMessage).toBe(
      'Health check failed: /health.php answered HTTP 503 through the PHP-FPM pool within 2 s',
    );
    writeFileSync(health, healthPhp(200));
    expect(await statusBecomes('active')).toBe('active');
  }, 240_000);

  it('WordPress: wp-config.php made once from wp-config-sample.php (credentials from the environment), the uploads folder kept across a redeploy and a rollback, pretty links to index.php; a failing health check keeps the old release', async () => {
    const repo = makeRepo('mailroom-wp-repo-');
    repos.push(repo.dir);
    repo.commit(
      {
        'index.php': wpIndex('v1'),
        'wp-config-sample.php': wpSample,
        'upload.php': wpUpload,
        'wp-content/index.php': '<?php // Silence is golden.\n',
      },
      'v1',
    );
    const created = await call('POST', 'web/applications/add', {
      name: 'wpt',
      domain: 'wpt.example.com',
      type: 'WordPress',
      version: '6',
      deploymentPath: '/var/www/apps/wpt',
      repository: repo.dir,
      healthCheckPath: '/',
      healthCheckInterval: 3,
      healthCheckTimeout: 2,
      customEnvironmentVariables: { DB_NAME: 'wpdb1', DB_USER: 'wp', DB_PASSWORD: 'pw', DB_HOST: 'db.local' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const first = await deploy('wpt');
    expect(first.state, JSON.stringify(first)).toBe('succeeded');
    const log = await logText('wpt', first.id);
    expect(log).toContain('The operator must provide: A MySQL or MariaDB database');
    expect(log).toContain('Made ');
    expect((await request(httpPort, 'wpt.example.com')).body).toBe('wp v1 db=wpdb1 host=db.local uri=/');
    // The front controller: a path that is no file is WordPress's.
    expect((await request(httpPort, 'wpt.example.com', { path: '/2026/11/hello-world/' })).body).toBe(
      'wp v1 db=wpdb1 host=db.local uri=/2026/11/hello-world/',
    );
    // The kept config: in the data folder, the app's user only, secrets filled, credentials from getenv.
    const kept = t.deps.host.path('/var/www/apps/wpt/data/wp-config.php');
    const config = readFileSync(kept, 'utf8');
    expect(config).toContain("define( 'DB_NAME', getenv('DB_NAME') );");
    expect(config).not.toContain('put your unique phrase here');
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(execFileSync('stat', ['-c', '%U', kept], { encoding: 'utf8' }).trim()).toBe('mr-app-wpt');

    // An upload (written by PHP as the app user) is served by Apache from the kept folder.
    const up = await request(httpPort, 'wpt.example.com', { path: '/upload.php?n=cat.txt' });
    expect(up.body).toBe('stored cat.txt');
    const upload = () => request(httpPort, 'wpt.example.com', { path: '/wp-content/uploads/cat.txt' });
    expect((await upload()).body).toBe('uploaded cat.txt');

    repo.commit({ 'index.php': wpIndex('v2') }, 'v2');
    expect((await deploy('wpt')).state).toBe('succeeded');
    expect((await request(httpPort, 'wpt.example.com')).body).toContain('wp v2 db=wpdb1');
    expect((await upload()).body).toBe('uploaded cat.txt');
    // The config file was kept, not made again (same secrets).
    expect(readFileSync(kept, 'utf8')).toBe(config);

    expect((await rollback('wpt')).state).toBe('succeeded');
    expect((await request(httpPort, 'wpt.example.com')).body).toContain('wp v1 db=wpdb1');
    expect((await upload()).body).toBe('uploaded cat.txt');

    // A release whose health check answers 500: the live one keeps serving, uploads and all.
    repo.commit({ 'index.php': wpIndex('v3', 500) }, 'v3');
    const bad = await deploy('wpt');
    expect(bad.state).toBe('failed');
    expect((await request(httpPort, 'wpt.example.com')).body).toContain('wp v1 db=wpdb1');
    expect((await upload()).body).toBe('uploaded cat.txt');
    expect((await call('GET', 'web/applications/wpt')).json().status).toBe('error');
  }, 240_000);

  it('Drupal: sites/default/settings.php made from default.settings.php (database from the environment), sites/default/files kept across a redeploy', async () => {
    const repo = makeRepo('mailroom-dp-repo-');
    repos.push(repo.dir);
    const index = (v: string) =>
      `<?php\n$databases = [];\n$settings = [];\nrequire __DIR__ . '/sites/default/settings.php';\n$d = $databases['default']['default'];\nif (isset($_GET['put'])) file_put_contents(__DIR__ . '/sites/default/files/' . basename($_GET['put']), 'file ' . $_GET['put']);\necho 'drupal ${v} ' . $d['driver'] . ':' . $d['database'] . '@' . $d['host'] . ' salt ' . strlen($settings['hash_salt']);\n`;
    repo.commit(
      {
        'index.php': index('v1'),
        'sites/default/default.settings.php': "<?php\n$settings['hash_salt'] = '';\n",
      },
      'v1',
    );
    const created = await call('POST', 'web/applications/add', {
      name: 'dpt',
      domain: 'dpt.example.com',
      type: 'Drupal',
      version: '11',
      deploymentPath: '/var/www/apps/dpt',
      repository: repo.dir,
      healthCheckPath: '/',
      healthCheckInterval: 3,
      healthCheckTimeout: 2,
      customEnvironmentVariables: { DB_DRIVER: 'pgsql', DB_NAME: 'drupal', DB_HOST: 'db.local' },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((await deploy('dpt')).state).toBe('succeeded');
    expect((await request(httpPort, 'dpt.example.com')).body).toBe('drupal v1 pgsql:drupal@db.local salt 64');
    expect((await request(httpPort, 'dpt.example.com', { path: '/?put=a.txt' })).status).toBe(200);
    const file = () => request(httpPort, 'dpt.example.com', { path: '/sites/default/files/a.txt' });
    expect((await file()).body).toBe('file a.txt');
    repo.commit({ 'index.php': index('v2') }, 'v2');
    expect((await deploy('dpt')).state).toBe('succeeded');
    expect((await request(httpPort, 'dpt.example.com')).body).toBe('drupal v2 pgsql:drupal@db.local salt 64');
    expect((await file()).body).toBe('file a.txt');
  }, 120_000);

  it('Roundcube: config/config.inc.php made from its sample, temp/ and logs/ kept in the data folder and never served', async () => {
    const repo = makeRepo('mailroom-rc-repo-');
    repos.push(repo.dir);
    repo.commit(
      {
        'index.php': `<?php\n$config = [];\nrequire __DIR__ . '/config/config.inc.php';\necho 'rc v1 ' . $config['db_dsnw'] . ' ' . strlen($config['des_key']);\n`,
        'config/config.inc.php.sample': `<?php\n$config = [];\n$config['db_dsnw'] = 'mysql://roundcube:pass@localhost/roundcubemail';\n$config['des_key'] = 'rcmail-!24ByteDESkey*Str';\n`,
        'temp/x.txt': 'a temporary file\n',
        'logs/.htaccess': 'Require all denied\n',
      },
      'v1',
    );
    const created = await call('POST', 'web/applications/add', {
      name: 'rct',
      domain: 'rct.example.com',
      type: 'Roundcube',
      version: '1.6',
      deploymentPath: '/var/www/apps/rct',
      repository: repo.dir,
      healthCheckPath: '/',
      healthCheckInterval: 3,
      healthCheckTimeout: 2,
      customEnvironmentVariables: { ROUNDCUBE_DB_DSNW: 'sqlite:////var/lib/rc/db.sqlite' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const job = await deploy('rct');
    expect(job.state, JSON.stringify(job)).toBe('succeeded');
    expect((await request(httpPort, 'rct.example.com')).body).toBe(
      'rc v1 sqlite:////var/lib/rc/db.sqlite 24',
    );
    // temp/ and logs/ live in the data folder (seeded once from the repository) and are never served.
    expect(existsSync(t.deps.host.path('/var/www/apps/rct/data/temp/x.txt'))).toBe(true);
    expect(existsSync(t.deps.host.path('/var/www/apps/rct/data/logs'))).toBe(true);
    expect((await request(httpPort, 'rct.example.com', { path: '/temp/x.txt' })).status).toBe(403);
    expect((await request(httpPort, 'rct.example.com', { path: '/config/config.inc.php' })).status).toBe(403);
  }, 120_000);
});
