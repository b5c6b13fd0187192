import { createServer, type Server, type Socket } from 'node:net';

/** A tiny SMTP sink on 127.0.0.1: speaks just enough SMTP (refuses recipients @refused.example) and keeps every message it receives. */
export function smtpSink(): Promise<{
  server: Server;
  port: number;
  messages: { to: string; data: string }[];
}> {
  const messages: { to: string; data: string }[] = [];
  const server = createServer((sock: Socket) => {
    let to = '';
    let data: string | null = null;
    let buf = '';
    sock.setEncoding('utf8');
    sock.write('220 sink ESMTP\r\n');
    sock.on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (data !== null) {
          if (line === '.') {
            messages.push({ to, data });
            data = null;
            sock.write('250 queued\r\n');
          } else data += `${line}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO') sock.write('250-sink\r\n250 8BITMIME\r\n');
        else if (cmd === 'MAIL') sock.write('250 ok\r\n');
        else if (cmd === 'RCPT') {
          to = /<([^>]*)>/.exec(line)?.[1] ?? '';
          sock.write(to.endsWith('@refused.example') ? '550 no such user\r\n' : '250 ok\r\n');
        } else if (cmd === 'DATA') {
          data = '';
          sock.write('354 go on\r\n');
        } else if (cmd === 'QUIT') {
          sock.end('221 bye\r\n');
        } else sock.write('500 what\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve({ server, port: typeof addr === 'object' && addr ? addr.port : 0, messages });
    }),
  );
}
