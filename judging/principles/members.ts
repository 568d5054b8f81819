/**
 * The members a declared design reads beyond section 2 (SPEC DES-5), put on
 * the requests the kit sends at the any level: a chat render's role, a kind
 * label. A golden case gives the block at place i the (i mod n)-th value, so
 * the same case always sends the same request.
 */
type Members = Readonly<Record<string, readonly string[]>>;

const isPlainBlock = (b: unknown): b is Record<string, unknown> => typeof b === 'object' && b !== null && !Array.isArray(b);

/** `request` with every declared member on each block that does not carry it; a request with none declared is returned as it is. */
export function withMembers<R>(request: R, members: Members): R {
  const names = Object.keys(members);
  if (names.length === 0 || !isPlainBlock(request) || !Array.isArray(request.blocks)) return request;
  const blocks = request.blocks.map((b: unknown, i: number) => {
    if (!isPlainBlock(b)) return b;
    const added: Record<string, string> = {};
    for (const name of names) {
      const values = members[name]!;
      if (!(name in b)) added[name] = values[i % values.length]!;
    }
    return { ...b, ...added };
  });
  return { ...request, blocks } as R;
}
