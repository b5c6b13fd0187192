// One load run in its own process (`node --import tsx load-child.ts '<LoadOptions JSON>'`): the
// client's event loop is not shared with the Mailroom the bench runs in-process (its roll-up
// every 30 s would pause the client in whichever run it falls). Prints the result as JSON.
import { type LoadOptions, measureLoad } from '../lib/http-load.ts';

const opts = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const u0 = process.cpuUsage();
const r = await measureLoad(opts);
const u = process.cpuUsage(u0);
process.stdout.write(`${JSON.stringify({ ...r, clientUs: (u.user + u.system) / r.requests })}\n`);
