/** Columns of plain text, for the terminal: every table the kit prints goes through here. */

/** Width as a terminal shows it, near enough: one per code point. */
const width = (s: string): number => [...s].length;

export interface TableOptions {
  /** Columns aligned to the right (numbers); the others are aligned to the left. */
  right?: readonly number[];
  /** Draw a rule of dashes before each of these rows (0 is the header). */
  rules?: readonly number[];
}

/** The rows as aligned columns two spaces apart, each line without trailing spaces. */
export function textTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(0, ...rows.map((r) => width(r[i] ?? ''))));
  const right = new Set(options.right ?? []);
  const cell = (v: string, i: number): string => {
    const pad = ' '.repeat(widths[i]! - width(v));
    return right.has(i) ? pad + v : v + pad;
  };
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const lines: string[] = [];
  rows.forEach((r, n) => {
    if (options.rules?.includes(n)) lines.push(rule);
    lines.push(
      Array.from({ length: columns }, (_, i) => cell(r[i] ?? '', i))
        .join('  ')
        .trimEnd(),
    );
  });
  return lines.join('\n');
}
