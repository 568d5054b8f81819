/**
 * A small line diff (LCS) with a character diff inside each changed line
 * pair, enough to mark where an answer departs from the expectation.
 */
import { depthOf, stringifyJson } from '../protocol/deep-json.js';

export type Piece = { text: string; changed: boolean };
export type Row = { kind: 'same'; left: string; right: string } | { kind: 'changed'; left: Piece[] | null; right: Piece[] | null };

// Above this many line pairs the table would be slow to fill: compare by common prefix and suffix only.
const MAX_CELLS = 4_000_000;

function lcsPairs(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) return [];
  // lengths[i][j] = LCS length of a[i..], b[j..], in one flat array.
  const w = m + 1;
  const len = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      len[i * w + j] = a[i] === b[j] ? len[(i + 1) * w + j + 1]! + 1 : Math.max(len[(i + 1) * w + j]!, len[i * w + j + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (len[(i + 1) * w + j]! >= len[i * w + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** Mark the differing middle of two strings (common prefix and suffix are unchanged). */
export function charDiff(left: string, right: string): { left: Piece[]; right: Piece[] } {
  const a = Array.from(left);
  const b = Array.from(right);
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const split = (chars: string[]): Piece[] =>
    [
      { text: chars.slice(0, p).join(''), changed: false },
      { text: chars.slice(p, chars.length - s).join(''), changed: true },
      { text: chars.slice(chars.length - s).join(''), changed: false },
    ].filter((x) => x.text.length > 0);
  return { left: split(a), right: split(b) };
}

function pairUp(dl: string[], dr: string[], rows: Row[]): void {
  for (let k = 0; k < Math.max(dl.length, dr.length); k++) {
    const l = dl[k];
    const r = dr[k];
    if (l !== undefined && r !== undefined) {
      const d = charDiff(l, r);
      rows.push({ kind: 'changed', left: d.left, right: d.right });
    } else {
      rows.push({ kind: 'changed', left: l === undefined ? null : [{ text: l, changed: true }], right: r === undefined ? null : [{ text: r, changed: true }] });
    }
  }
}

/** Side-by-side rows for two texts: equal lines, and changed lines with their differing characters marked. */
export function sideBySide(left: string, right: string): Row[] {
  const a = left.split('\n');
  const b = right.split('\n');
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const rows: Row[] = [];
  for (let k = 0; k < pre; k++) rows.push({ kind: 'same', left: a[k]!, right: b[k]! });
  const ma = a.slice(pre, a.length - suf);
  const mb = b.slice(pre, b.length - suf);
  const pairs = lcsPairs(ma, mb);
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...pairs, [ma.length, mb.length] as [number, number]]) {
    pairUp(ma.slice(i, pi), mb.slice(j, pj), rows);
    if (pi < ma.length && pj < mb.length) rows.push({ kind: 'same', left: ma[pi]!, right: mb[pj]! });
    i = pi + 1;
    j = pj + 1;
  }
  for (let k = a.length - suf; k < a.length; k++) rows.push({ kind: 'same', left: a[k]!, right: b[k - a.length + b.length]! });
  return rows;
}

/** Nesting past which diffable stops drawing strings as blocks (a result nests 4 deep). */
const DIFFABLE_DEPTH = 100;

/**
 * JSON pretty-printed for a line diff, except that a string holding line
 * breaks is shown as a block of its lines (`"context": |` then the lines), so
 * a wrong context diffs line by line instead of as one long line.
 */
export function diffable(value: unknown): string {
  if (typeof value === 'string') return value;
  // The walk below recurses: a value nested deeper than any answer needs is shown as plain pretty JSON.
  if (depthOf(value, DIFFABLE_DEPTH) >= DIFFABLE_DEPTH) return stringifyJson(value, 2) ?? String(value);
  const out: string[] = [];
  const walk = (v: unknown, pad: string, head: string, tail: string): void => {
    if (typeof v === 'string' && v.includes('\n')) {
      out.push(`${pad}${head}|`);
      for (const line of v.split('\n')) out.push(`${pad}    ${line}`);
      if (tail) out.push(`${pad}${tail}`);
      return;
    }
    if (Array.isArray(v) && v.length > 0) {
      out.push(`${pad}${head}[`);
      v.forEach((x, k) => {
        walk(x, pad + '  ', '', k < v.length - 1 ? ',' : '');
      });
      out.push(`${pad}]${tail}`);
      return;
    }
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0) {
      const entries = Object.entries(v);
      out.push(`${pad}${head}{`);
      entries.forEach(([k, x], n) => {
        walk(x, pad + '  ', `${JSON.stringify(k)}: `, n < entries.length - 1 ? ',' : '');
      });
      out.push(`${pad}}${tail}`);
      return;
    }
    out.push(`${pad}${head}${JSON.stringify(v) ?? String(v)}${tail}`);
  };
  walk(value, '', '', '');
  return out.join('\n');
}
