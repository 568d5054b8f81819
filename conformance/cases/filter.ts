/**
 * Case-id globs for `--filter`: `*` matches within one path segment, `**`
 * across segments, `?` one character; several globs separated by commas.
 */
export function globMatcher(globs: string): (id: string) => boolean {
  const res = globs
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g.length > 0)
    .map(globToRegExp);
  return (id) => res.some((re) => re.test(id));
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
