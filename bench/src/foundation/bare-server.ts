// The baseline: a bare Fastify answering a small JSON object, no plugins, no logging. WORKERS=N
// (default 1) serves it from N node:cluster workers sharing the port, as Mailroom's workers do.
import cluster from 'node:cluster';
import Fastify from 'fastify';

const workers = Number(process.env.WORKERS ?? 1);
const port = Number(process.env.PORT ?? 0);

if (workers > 1 && cluster.isPrimary) {
  let up = 0;
  for (let i = 0; i < workers; i++)
    cluster.fork().on('listening', () => {
      if (++up === workers) process.stdout.write(`listening ${port}\n`);
    });
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    setTimeout(() => process.exit(0), 200);
  });
} else {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ authenticated: true, email: 'admin@example.com' }));
  await app.listen({ port, host: '127.0.0.1' });
  const addr = app.server.address();
  if (cluster.isPrimary)
    process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : port}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
