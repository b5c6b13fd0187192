import http from 'node:http';

export type ScrapeAnswer =
  | { ok: true; status: number; contentType: string; body: string; bytes: number; ms: number }
  | { ok: false; status: number | null; error: string; bytes: number; ms: number };

/**
 * GET http://127.0.0.1:<port><path> for an app's figures, bounded: the whole answer within
 * `timeoutMs`, at most `maxBytes` of body (past it the request is cut and the scrape is an error).
 */
export function scrapeLoopback(
  port: number,
  urlPath: string,
  opts: { timeoutMs: number; maxBytes: number },
): Promise<ScrapeAnswer> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    let done = false;
    let bytes = 0;
    let status: number | null = null;
    const finish = (a: ScrapeAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(a);
    };
    const fail = (error: string) => finish({ ok: false, status, error, bytes, ms: Date.now() - t0 });
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        agent: false,
        headers: { accept: 'text/plain;version=0.0.4;q=1, */*;q=0.1' },
      },
      (res) => {
        status = res.statusCode ?? null;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (bytes > opts.maxBytes) {
            req.destroy();
            fail(`The answer is larger than ${Math.round(opts.maxBytes / 1024)} KiB`);
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          if (status === null || status < 200 || status > 299) {
            fail(`HTTP ${status ?? '?'} from the endpoint`);
            return;
          }
          finish({
            ok: true,
            status,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
            bytes,
            ms: Date.now() - t0,
          });
        });
        res.on('error', (err) => fail(err.message));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      fail(`No whole answer within ${opts.timeoutMs / 1000} s`);
    }, opts.timeoutMs);
    req.on('error', (err) => fail(`No answer: ${err.message}`));
  });
}
