import { performance } from 'node:perf_hooks';
import * as target from './server/src/features/web/stack/apache-probe.ts';
import * as hostmod from './server/src/host/apache-host.ts';
const origProbe = target.probeHosts;
export {};
console.log(typeof origProbe, typeof hostmod.checkApacheTree);
