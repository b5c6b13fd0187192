/**
 * The spec's backend sends a path containing a slash as `index.php?path=<path>`. Both forms
 * reach the same handler: `/api/index.php?path=mail/users&q=x` becomes `/api/mail/users?q=x`.
 * A path that tries to leave the catalogue (`..`, absolute, encoded slashes) goes nowhere.
 */
export function rewriteIndexPhp(url: string): string {
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  if (pathname !== '/api/index.php') return url;
  const params = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  const target = params.get('path');
  params.delete('path');
  if (
    !target ||
    !/^[A-Za-z0-9._@+%-]+(\/[A-Za-z0-9._@+%:-]+)*$/.test(target) ||
    target.split('/').some((s) => s === '..' || s === '.')
  ) {
    return '/api/index.php/__outside_catalogue__';
  }
  const rest = params.toString();
  return `/api/${target}${rest ? `?${rest}` : ''}`;
}
