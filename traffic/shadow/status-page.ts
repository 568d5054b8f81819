/**
 * The shadow's `/status` page: the counts, the kinds of disagreement and the
 * last disagreements, as the judge scrubbed them. Every text escaped (the
 * report's own escaping), and nothing loaded from anywhere: no script, no
 * outside address, a style of its own.
 */
import { h } from '../../report/html.js';
import type { ShadowTally } from './tally.js';

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;max-width:70em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
pre{white-space:pre-wrap;margin:0;font-size:12px}`;

/** What the page says of the shadow besides the tally: its upstream, as the command line named it. */
export interface StatusContext {
  upstream: string;
  sample: number;
}

export function statusPage(t: ShadowTally, c: StatusContext): string {
  const s = t.counts;
  const row = (k: string, v: string | number): string => `<tr><th>${h(k)}</th><td>${h(String(v))}</td></tr>`;
  const counts = [
    row('upstream', c.upstream),
    row('sampled fraction', c.sample),
    row('requests', t.requests),
    row('sampled', t.sampled),
    row('judged', s.total),
    row('pass', s.pass),
    row('fail', s.fail),
    row('error', s.error),
    row('skip', s.skip),
    row('dropped samples (judge queue full)', t.dropped),
    row('over the body limit (not judged)', t.oversize),
    row('upstream failures', t.upstreamFailures),
    row('judge errors', t.judgeErrors),
  ].join('');
  const kinds = [...t.kinds.values()]
    .sort((a, b) => b.count - a.count)
    .map(
      (k) =>
        `<tr><td>${h(k.id)}</td><td>${h(k.status)}</td><td>${h(k.requirements.join(', '))}</td><td>${k.count}</td>` +
        `<td>${k.known ? 'known (baseline)' : 'new'}</td><td>${h(k.kept ? `${k.kept.file}:${k.kept.line}` : '')}</td></tr>`,
    )
    .join('');
  const recent = t.recent
    .map(
      (r) =>
        `<tr><td>${h(r.at)}</td><td>${h(r.kind)}</td><td>${h(r.requirements.join(', '))}</td><td>${h(r.kept ? `${r.kept.file}:${r.kept.line}` : '')}</td><td><pre>${h(r.message)}</pre></td></tr>`,
    )
    .join('');
  const causes = t.causes
    .map((x) => `<tr><td>${h(x.id)}</td><td>${h(x.requirements.join(', '))}</td><td>${h(x.summary)}</td><td>${x.explains} of ${x.failing}</td></tr>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ctxconform shadow</title><style>${STYLE}</style></head><body>
<h1>ctxconform shadow</h1>
<table>${counts}</table>
<h2>Kinds of disagreement</h2>
${kinds ? `<table><tr><th>kind</th><th>status</th><th>requirements</th><th>count</th><th>baseline</th><th>kept record</th></tr>${kinds}</table>` : '<p>none</p>'}
<h2>Likely cause</h2>
${causes ? `<table><tr><th>cause</th><th>requirements</th><th>summary</th><th>explains</th></tr>${causes}</table>` : '<p>none yet</p>'}
<h2>Last disagreements (scrubbed)</h2>
${recent ? `<table><tr><th>at</th><th>kind</th><th>requirements</th><th>kept record</th><th>message</th></tr>${recent}</table>` : '<p>none</p>'}
</body></html>
`;
}
