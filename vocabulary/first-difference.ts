/** Where two strings first differ, with a little of each around it: the one spelling of a context difference. */
export function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export function firstDifference(expected: string, actual: string): string {
  const i = commonPrefixLength(expected, actual);
  const from = Math.max(0, i - 20);
  return `first difference at index ${i}: expected …${JSON.stringify(expected.slice(from, i + 30))}…, got …${JSON.stringify(actual.slice(from, i + 30))}…`;
}
