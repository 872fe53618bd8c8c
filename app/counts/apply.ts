import { bitsOf, isKeyed, OTHER, SOURCE_SLOTS, type Mark, type Tally } from "./tally";

/** What a batch needs to read from the store, inside its write transaction: bitmaps, and the keys of each keyed kind (sources, hosts). */
export type Needs = { bitmaps: { day: string; page: string }[]; sources: { day: string; kind: string }[] };
/** What the store holds of it: each bitmap (by needed order) and the keys that have their own row (OTHER left out). */
export type Snapshot = { bitmaps: (Buffer | undefined)[]; sources: Set<string>[] };
/** What to write: the bitmaps that changed, and the counts to add. */
export type Changes = { bitmaps: { day: string; page: string; bits: Buffer }[]; tallies: Tally[] };

const byBitmap = (marks: Mark[]) => groupBy(marks, (mark) => `${mark.day}\0${mark.page}`);

/** Pure: the bitmaps and keyed kinds a batch reads. */
export function needsOf(tallies: Tally[], marks: Mark[]): Needs {
  const sources = new Map<string, { day: string; kind: string }>();
  for (const mark of marks)
    for (const { kind } of mark.sources ?? []) sources.set(`${mark.day}\0${kind}`, { day: mark.day, kind });
  for (const { day, kind } of tallies) if (isKeyed(kind)) sources.set(`${day}\0${kind}`, { day, kind });
  return {
    bitmaps: [...byBitmap(marks).values()].map((group) => ({ day: group[0]!.day, page: group[0]!.page })),
    sources: [...sources.values()],
  };
}

/**
 * Pure: what a batch writes, given what the store holds (in the same transaction, one process at a time):
 * the marks set into the bitmaps (a bit newly set counts a visitor, and the sources they came with), the
 * keyed counts (sources, hosts of outbound links and embeds) within their slots (a key with no row of its
 * own, once SOURCE_SLOTS have one, counts as OTHER), and the counts summed by row.
 */
export function changesOf(tallies: Tally[], marks: Mark[], needs: Needs, snapshot: Snapshot): Changes {
  const sums = new Map<string, Tally>();
  const add = (tally: Tally) => {
    const id = `${tally.day}\0${tally.kind}\0${tally.page}\0${tally.key}`;
    const known = sums.get(id);
    if (known) known.n += tally.n;
    else sums.set(id, { ...tally });
  };
  const sources: Tally[] = [];
  for (const tally of tallies) {
    if (isKeyed(tally.kind)) sources.push(tally);
    else add(tally);
  }

  const bitmaps: Changes["bitmaps"] = [];
  [...byBitmap(marks).values()].forEach((group, index) => {
    const { day, page } = needs.bitmaps[index]!;
    const size = bitsOf(page);
    const stored = snapshot.bitmaps[index];
    const bits = stored?.length === size / 8 ? Buffer.from(stored) : Buffer.alloc(size / 8);
    let changed = false;
    for (const mark of group) {
      const bit = mark.bit % size;
      const mask = 1 << (bit & 7);
      if (bits[bit >> 3]! & mask) continue;
      bits[bit >> 3]! |= mask;
      changed = true;
      add({ day, kind: "visitors", page, key: "", n: 1 });
      for (const source of mark.sources ?? [])
        sources.push({ day, kind: source.kind, page: "", key: source.key, n: 1 });
    }
    if (changed) bitmaps.push({ day, page, bits });
  });

  const taken = new Map(
    needs.sources.map(({ day, kind }, index) => [`${day}\0${kind}`, new Set(snapshot.sources[index])]),
  );
  for (const source of sources) {
    const keys = taken.get(`${source.day}\0${source.kind}`) ?? new Set();
    const own = source.key !== OTHER && (keys.has(source.key) || keys.size < SOURCE_SLOTS);
    if (own) keys.add(source.key);
    add({ ...source, key: own ? source.key : OTHER });
  }
  return { bitmaps, tallies: [...sums.values()] };
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
