import { describe, expect, it } from 'vitest';
import type { FileChanges } from '../../../apply/file-set.ts';
import type { ServiceControl } from '../../../host/service-control.ts';
import { Host } from '../../../host/host.ts';
import type { ApacheControl, ApacheReload } from './apache-control.service.ts';
import { apacheTarget } from './apache.target.ts';

const RUNNING_BUT_REFUSED: ApacheReload = { ok: false, attempted: true, output: 'graceful: Apache exited' };
const NOT_RUNNING: ApacheReload = {
  ok: true,
  attempted: false,
  output: 'apache2 is not running; nothing reloaded',
};
const RELOADED: ApacheReload = {
  ok: true,
  attempted: true,
  output: 'systemctl reload apache2.service: done',
};

/** A control whose reloads answer `answers` in turn and which counts its starts. */
function control(system: boolean, answers: ApacheReload[]) {
  const c = {
    starts: 0,
    mode: { system, httpPort: 80, httpsPort: 443, hostPath: (p: string) => p },
    reload: async () => answers.shift()!,
    start: async (): Promise<ApacheReload> => {
      c.starts++;
      return { ok: true, attempted: true, output: 'systemctl start apache2.service: started again' };
    },
  };
  return c;
}

const changes = (): FileChanges => ({ written: ['/etc/apache2/sites-available/a.conf'], removed: [] });
const services = {} as ServiceControl;

describe('the web target after a refused reload', () => {
  it('starts a system Apache again when the refused reload took it down', async () => {
    const c = control(true, [RUNNING_BUT_REFUSED, NOT_RUNNING]);
    const target = apacheTarget(new Host('/', true), c as unknown as ApacheControl, () => null);
    const ch = changes();
    const first = await target.reload!(ch, services);
    expect(first.map((r) => r.ok)).toEqual([false]);
    // The pipeline put the last good files back and reloads with the same changes.
    const again = await target.reload!(ch, services);
    expect(c.starts).toBe(1);
    expect(again).toEqual([
      {
        ok: true,
        attempted: true,
        output: `${NOT_RUNNING.output}\nsystemctl start apache2.service: started again`,
      },
    ]);
  });

  it('never starts an Apache that was not running before the change, nor on a new change', async () => {
    const stopped = control(true, [NOT_RUNNING, NOT_RUNNING]);
    const t1 = apacheTarget(new Host('/', true), stopped as unknown as ApacheControl, () => null);
    const ch = changes();
    await t1.reload!(ch, services);
    await t1.reload!(ch, services);
    expect(stopped.starts).toBe(0);

    const fresh = control(true, [RELOADED, NOT_RUNNING]);
    const t2 = apacheTarget(new Host('/', true), fresh as unknown as ApacheControl, () => null);
    await t2.reload!(changes(), services);
    await t2.reload!(changes(), services);
    expect(fresh.starts).toBe(0);
  });

  it('leaves a local Apache to the supervisor', async () => {
    const c = control(false, [RUNNING_BUT_REFUSED, NOT_RUNNING]);
    const target = apacheTarget(new Host('/tmp/none', true), c as unknown as ApacheControl, () => null);
    const ch = changes();
    await target.reload!(ch, services);
    expect(await target.reload!(ch, services)).toEqual([NOT_RUNNING]);
    expect(c.starts).toBe(0);
  });
});
