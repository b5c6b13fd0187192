// The baseline: a bare Fastify answering a small JSON object, no plugins, no logging.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ authenticated: true, email: 'admin@example.com' }));

const port = Number(process.env.PORT ?? 0);
await app.listen({ port, host: '127.0.0.1' });
const addr = app.server.address();
process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
