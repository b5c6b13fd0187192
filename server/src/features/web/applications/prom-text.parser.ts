import type { AppMetricSeries, PromType } from '@mailroom/contract/web/app-metrics';

/**
 * Prometheus text exposition format 0.0.4 (what prom-client, the Go and Python clients write):
 * `# HELP name text`, `# TYPE name type`, then samples `name{label="value",…} value [timestamp]`.
 * Strict: the first line that is none of these is the error (with its number), so an HTML page or a
 * JSON answer is reported as what it is, never read as zeros.
 */
export type PromParse = { ok: true; series: AppMetricSeries[]; total: number } | { ok: false; error: string };

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES: readonly string[] = ['counter', 'gauge', 'untyped', 'histogram', 'summary'];

class LineError extends Error {}

function parseValue(s: string): number | null | undefined {
  if (s === 'NaN' || s === '+Inf' || s === '-Inf' || s === 'Inf') return null;
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) return undefined;
  return Number(s);
}

/** `{a="1",b="x\"y"}` from position i of `line`: the labels and where the text after `}` starts. */
function parseLabels(line: string, i: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  i++; // '{'
  for (;;) {
    while (line[i] === ' ') i++;
    if (line[i] === '}') return { labels, end: i + 1 };
    const name = LABEL.exec(line.slice(i))?.[0];
    if (!name) throw new LineError('a label name was expected');
    i += name.length;
    while (line[i] === ' ') i++;
    if (line[i] !== '=') throw new LineError(`"=" was expected after the label ${name}`);
    i++;
    while (line[i] === ' ') i++;
    if (line[i] !== '"') throw new LineError(`the value of the label ${name} must be quoted`);
    i++;
    let v = '';
    for (;;) {
      const c = line[i];
      if (c === undefined) throw new LineError(`the value of the label ${name} is not closed`);
      if (c === '\\') {
        const n = line[i + 1];
        v += n === 'n' ? '\n' : (n ?? '');
        i += 2;
        continue;
      }
      if (c === '"') {
        i++;
        break;
      }
      v += c;
      i++;
    }
    if (name in labels) throw new LineError(`the label ${name} is given twice`);
    labels[name] = v;
    while (line[i] === ' ') i++;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') throw new LineError('"," or "}" was expected after a label');
  }
}

/** The family a sample belongs to (a histogram's _bucket/_sum/_count, a summary's _sum/_count). */
function familyOf(name: string, types: Map<string, PromType>): { family: string; type: PromType } {
  const own = types.get(name);
  if (own) return { family: name, type: own };
  for (const suffix of ['_bucket', '_sum', '_count', '_total', '_created']) {
    if (!name.endsWith(suffix)) continue;
    const base = name.slice(0, -suffix.length);
    const t = types.get(base);
    if (t) return { family: base, type: t };
  }
  return { family: name, type: 'untyped' };
}

/** Parses the text; keeps at most `maxSeries` series (counters, gauges, untyped first). */
export function parsePromText(text: string, maxSeries: number): PromParse {
  const types = new Map<string, PromType>();
  const helps = new Map<string, string>();
  const all: AppMetricSeries[] = [];
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.replace(/\r$/, '');
    try {
      if (!line.trim()) continue;
      if (line.startsWith('#')) {
        const m = /^#\s+(HELP|TYPE)\s+([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\s+(.*))?$/.exec(line);
        if (!m) continue; // any other comment
        if (m[1] === 'TYPE') {
          const t = (m[3] ?? '').trim();
          if (!TYPES.includes(t)) throw new LineError(`unknown TYPE "${t}"`);
          types.set(m[2]!, t as PromType);
        } else helps.set(m[2]!, (m[3] ?? '').replace(/\\n/g, '\n').replace(/\\\\/g, '\\'));
        continue;
      }
      const trimmed = line.trimStart();
      const name = NAME.exec(trimmed)?.[0];
      if (!name) throw new LineError('a metric name was expected');
      let i = name.length;
      let labels: Record<string, string> = {};
      if (trimmed[i] === '{') ({ labels, end: i } = parseLabels(trimmed, i));
      if (trimmed[i] !== ' ' && trimmed[i] !== '\t')
        throw new LineError('a space and a value were expected after the metric name');
      const rest = trimmed.slice(i).trim().split(/\s+/);
      if (!rest[0] || rest.length > 2)
        throw new LineError('a value (and an optional timestamp) was expected');
      const value = parseValue(rest[0]);
      if (value === undefined) throw new LineError(`"${rest[0].slice(0, 40)}" is not a number`);
      if (rest[1] !== undefined && !/^-?\d+$/.test(rest[1]))
        throw new LineError(`"${rest[1].slice(0, 40)}" is not a timestamp`);
      const { family, type } = familyOf(name, types);
      all.push({ name, type, help: helps.get(family) ?? '', labels, value, raw: rest[0] });
    } catch (err) {
      if (!(err instanceof LineError)) throw err;
      const shown = line.length > 80 ? `${line.slice(0, 80)}…` : line;
      return { ok: false, error: `Not Prometheus text: line ${n + 1}: ${err.message}: ${shown}` };
    }
  }
  // A histogram's buckets and a summary's quantiles would crowd out the rest: their _sum/_count stay.
  const detail = (s: AppMetricSeries) =>
    (s.type === 'histogram' && s.name.endsWith('_bucket')) ||
    (s.type === 'summary' && 'quantile' in s.labels);
  const rank = (s: AppMetricSeries) => (s.type === 'histogram' || s.type === 'summary' ? 1 : 0);
  const kept = all
    .filter((s) => !detail(s))
    .map((s, i) => ({ s, i }))
    .sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i)
    .slice(0, maxSeries)
    .map((x) => x.s);
  return { ok: true, series: kept, total: all.length };
}
