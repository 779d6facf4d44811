/** What an async iterable yields, in order, once it ends. (Array.fromAsync is Node 22's; udcli supports 20.) */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
