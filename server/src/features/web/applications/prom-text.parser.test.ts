import { describe, expect, it } from 'vitest';
import { parsePromText } from './prom-text.parser.ts';

const PROM_CLIENT = `# HELP http_requests_total Requests served
# TYPE http_requests_total counter
http_requests_total{method="GET",code="200"} 1027 1395066363000
http_requests_total{method="POST",code="500"} 3
# HELP process_resident_memory_bytes Resident memory size in bytes.
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 4.2e+07
# TYPE rpc_duration_seconds histogram
rpc_duration_seconds_bucket{le="0.1"} 5
rpc_duration_seconds_bucket{le="+Inf"} 9
rpc_duration_seconds_sum 1.5
rpc_duration_seconds_count 9
# TYPE lat summary
lat{quantile="0.5"} 0.2
lat_sum 4
lat_count 20
weird_value NaN
escaped{path="a\\"b\\\\c"} -1
`;

describe('Prometheus text exposition', () => {
  it('reads counters, gauges and untyped with their help and labels; histograms keep _sum and _count only', () => {
    const r = parsePromText(PROM_CLIENT, 200);
    if (!r.ok) throw new Error(r.error);
    expect(r.total).toBe(12);
    expect(r.series.map((s) => `${s.name}:${s.type}`)).toEqual([
      'http_requests_total:counter',
      'http_requests_total:counter',
      'process_resident_memory_bytes:gauge',
      'weird_value:untyped',
      'escaped:untyped',
      'rpc_duration_seconds_sum:histogram',
      'rpc_duration_seconds_count:histogram',
      'lat_sum:summary',
      'lat_count:summary',
    ]);
    expect(r.series[0]).toMatchObject({
      help: 'Requests served',
      labels: { method: 'GET', code: '200' },
      value: 1027,
    });
    expect(r.series[2]!.value).toBe(42_000_000);
    expect(r.series[3]).toMatchObject({ value: null, raw: 'NaN' });
    expect(r.series[4]!.labels).toEqual({ path: 'a"b\\c' });
  });

  it('keeps at most the cap (counters and gauges first)', () => {
    const text = Array.from({ length: 500 }, (_, i) => `m_${i} ${i}`).join('\n');
    const r = parsePromText(text, 200);
    expect(r.ok && r.series.length).toBe(200);
    expect(r.ok && r.total).toBe(500);
  });

  it('an HTML page, JSON or a bad line is an error naming the line, never zeros', () => {
    expect(parsePromText('<!DOCTYPE html>\n<html></html>', 200)).toEqual({
      ok: false,
      error: 'Not Prometheus text: line 1: a metric name was expected: <!DOCTYPE html>',
    });
    expect(parsePromText('{"requests": 3}', 200).ok).toBe(false);
    const r = parsePromText('# TYPE a counter\na 1\nb{x="1" 2\n', 200);
    expect(r).toEqual({
      ok: false,
      error: 'Not Prometheus text: line 3: "," or "}" was expected after a label: b{x="1" 2',
    });
    expect(parsePromText('a one', 200)).toMatchObject({
      ok: false,
      error: expect.stringContaining('line 1: "one" is not a number'),
    });
    expect(parsePromText('# TYPE a meter\na 1', 200).ok).toBe(false);
    expect(parsePromText('requests=3', 200).ok).toBe(false);
  });
});
