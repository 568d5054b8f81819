/**
 * A small reader of the Prometheus text exposition format (version 0.0.4),
 * for the tests to read /metrics as a scraper does: every sample line as
 * name, labels and value, the HELP and TYPE of each family; a line that is
 * neither a comment nor a sample throws.
 */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PromText {
  samples: PromSample[];
  types: Map<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

function labelsOf(text: string, line: string): Record<string, string> {
  const out: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const m = LABEL.exec(text);
    if (!m) throw new Error(`bad labels in ${JSON.stringify(line)}`);
    out[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return out;
}

function numberOf(s: string): number {
  if (s === '+Inf') return Infinity;
  if (s === '-Inf') return -Infinity;
  if (s === 'NaN') return NaN;
  const v = Number(s);
  if (Number.isNaN(v)) throw new Error(`bad value ${s}`);
  return v;
}

export function parsePrometheus(text: string): PromText {
  const samples: PromSample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const t = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (t) types.set(t[1]!, t[2]!);
      else if (!/^# HELP \S+ /.test(line)) throw new Error(`bad comment ${JSON.stringify(line)}`);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
    samples.push({ name: m[1]!, labels: m[3] ? labelsOf(m[3], line) : {}, value: numberOf(m[4]!) });
  }
  return { samples, types };
}

/** The value of the one sample with this name and these labels (among others), or 0 when none. */
export function valueAt(p: PromText, name: string, labels: Record<string, string> = {}): number {
  const hits = p.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (hits.length > 1) throw new Error(`${hits.length} samples of ${name} ${JSON.stringify(labels)}`);
  return hits[0]?.value ?? 0;
}
