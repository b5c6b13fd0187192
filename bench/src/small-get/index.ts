import { apiThroughput } from '../foundation/api-throughput.ts';
import type { BenchSuite } from '../suite.ts';

/** The foundation suite's small-read ratio alone (no browser): `npm run bench -- small-get [--rounds=N] [--seconds=N]`. */
const suite: BenchSuite = {
  name: 'small-get',
  description: 'small authenticated GETs against a bare Fastify route, paired rounds (ratio goal ≥ 0.5)',
  run: (ctx) => apiThroughput(ctx),
};

export default suite;
