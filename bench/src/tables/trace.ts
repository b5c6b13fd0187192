/** Reading a Chromium performance trace: the renderer main thread's tasks and what fills them. */

export interface TraceEvent {
  name: string;
  ph: string;
  tid: number;
  pid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of an 'X' event, µs: the duration less the time the thread was not running. */
  tdur?: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}

/** Top-level task events of the renderer's main thread (the name varies across Chromium versions). */
const TASK_EVENTS = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/** What an event's self time counts as, the way DevTools' summary groups it. */
const KIND: Record<string, string> = {
  FunctionCall: 'script',
  EvaluateScript: 'script',
  'v8.evaluateModule': 'script',
  TimerFire: 'script',
  EventDispatch: 'script',
  FireAnimationFrame: 'script',
  RunMicrotasks: 'script',
  'v8.run': 'script',
  'v8.compile': 'script',
  V8Execute: 'script',
  MinorGC: 'gc',
  MajorGC: 'gc',
  'V8.GC_SCAVENGER': 'gc',
  UpdateLayoutTree: 'style',
  RecalculateStyles: 'style',
  ParseAuthorStyleSheet: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  UpdateLayer: 'paint',
  UpdateLayerTree: 'paint',
  CompositeLayers: 'paint',
  Commit: 'paint',
  ParseHTML: 'parse',
};

interface Span {
  name: string;
  start: number;
  end: number;
  cpu?: number | undefined;
}

export interface TaskBreakdown {
  ms: number;
  /**
   * The task's thread time, ms, when the trace has it: on a machine busy with other work the
   * wall-clock duration also counts the time the renderer waited for a core.
   */
  cpuMs: number | null;
  /** Self time per kind (script, style, layout, paint, gc, other), ms, largest first. */
  kinds: [string, number][];
  /** Self time per trace event name, ms, largest first. */
  events: [string, number][];
}

function mainThreads(events: TraceEvent[]): Set<string> {
  return new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
}

/** Complete spans ('X' events and matched 'B'/'E' pairs) of the given thread, by start time. */
function spansOf(events: TraceEvent[], thread: string): Span[] {
  const spans: Span[] = [];
  const open: TraceEvent[] = [];
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== thread) continue;
    if (e.ph === 'X') spans.push({ name: e.name, start: e.ts, end: e.ts + (e.dur ?? 0), cpu: e.tdur });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const i = open.findLastIndex((b) => b.name === e.name);
      if (i < 0) continue;
      const b = open.splice(i, 1)[0]!;
      spans.push({ name: b.name, start: b.ts, end: e.ts });
    }
  }
  // Parents first: earlier start, and at the same start the longer span.
  return spans.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The renderer main thread's tasks (µs → ms), longest first, each with its self-time breakdown. */
export function mainThreadTasks(trace: { traceEvents: TraceEvent[] }): TaskBreakdown[] {
  const events = [...trace.traceEvents].sort((a, b) => a.ts - b.ts);
  const out: TaskBreakdown[] = [];
  for (const thread of mainThreads(events)) {
    const spans = spansOf(events, thread);
    for (let i = 0; i < spans.length; i++) {
      const task = spans[i]!;
      if (!TASK_EVENTS.has(task.name)) continue;
      // The spans inside the task, nested by a stack: each one's self time is its duration less
      // its children's.
      const self = new Map<string, number>();
      const stack: { span: Span; child: number }[] = [{ span: task, child: 0 }];
      const close = (until: number) => {
        while (stack.length > 1 && stack[stack.length - 1]!.span.end <= until) {
          const top = stack.pop()!;
          const dur = top.span.end - top.span.start;
          self.set(top.span.name, (self.get(top.span.name) ?? 0) + dur - top.child);
          stack[stack.length - 1]!.child += dur;
        }
      };
      let j = i + 1;
      for (; j < spans.length && spans[j]!.start < task.end; j++) {
        const s = spans[j]!;
        if (TASK_EVENTS.has(s.name)) continue;
        close(s.start);
        stack.push({ span: { ...s, end: Math.min(s.end, task.end) }, child: 0 });
      }
      close(Infinity);
      const root = stack[0]!;
      self.set('(task self)', task.end - task.start - root.child);
      const kinds = new Map<string, number>();
      for (const [name, us] of self) {
        const kind = KIND[name] ?? (name.startsWith('v8') || name.startsWith('V8') ? 'script' : 'other');
        kinds.set(kind, (kinds.get(kind) ?? 0) + us);
      }
      const ms = (m: Map<string, number>): [string, number][] =>
        [...m].map(([k, v]): [string, number] => [k, v / 1000]).sort((a, b) => b[1] - a[1]);
      out.push({
        ms: (task.end - task.start) / 1000,
        cpuMs: task.cpu === undefined ? null : task.cpu / 1000,
        kinds: ms(kinds),
        events: ms(self),
      });
    }
  }
  return out.sort((a, b) => b.ms - a.ms);
}

/** Self time of one kind (script, gc, …) summed over the tasks, ms. */
export function kindTotal(tasks: TaskBreakdown[], kind: string): number {
  return tasks.reduce((n, t) => n + (t.kinds.find(([k]) => k === kind)?.[1] ?? 0), 0);
}

/** "script 310, layout 120, style 40" (ms, the kinds above 1 ms). */
export function describeBreakdown(t: TaskBreakdown, parts: 'kinds' | 'events' = 'kinds', top = 6): string {
  return t[parts]
    .filter(([, v]) => v >= 1)
    .slice(0, top)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', ');
}
