/** Reads every page of a paged list or Describe call: `page(token)` returns the items and the next token. */
export async function allPages<T>(page: (token: string | undefined) => Promise<readonly [T[] | undefined, string | undefined]>): Promise<T[]> {
  const all: T[] = [];
  let token: string | undefined;
  do {
    const [items, next] = await page(token);
    all.push(...(items ?? []));
    token = next;
  } while (token);
  return all;
}
