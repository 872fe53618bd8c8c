import type pg from "pg";
import { MAX_COUNTED } from "./catalogue";
import { countedUpTo, EXACT_UP_TO, NEWEST_RANKED } from "./catalogue-rules.server";
import { matchBounds, RANK_WEIGHTS, tsqueryOfShape, type QueryShape } from "./pg-text";

/**
 * Ranking in the PostgreSQL catalogue, bounded at any size with the SQLite store's rule (docs/decisions/040,
 * 055): up to EXACT_UP_TO matches every one is ranked; beyond, the articles with the words in their title,
 * keywords or description come first, then the others, each ranked among its NEWEST_RANKED newest by date.
 *
 * A GIN index neither stops early nor gives its matches newest first: what it costs grows with every match
 * (a word in 98,000 of 100,000 articles: 30 ms of CPU to count to 5,001, 200 ms for the newest 1,000 by
 * date). So each article's word lists also hold its catalogue, `#<catalogue>`, and its period of 32 days,
 * `@<catalogue>:<day / 32, five digits>` (catalogue_marks, app/database/postgres-schema.server.ts), and the newest matches are
 * asked for within the periods of the newest few thousand articles of the catalogue: the index then reads
 * those periods' entries and skips through the common word's, and the table is read for the matches of the
 * window alone. A window that holds too few is widened, from how many it held, until it holds enough; when
 * the matches are few, the whole catalogue is read at once.
 */

/**
 * Windows, in articles of the newest: the whole catalogue from the last on. Close enough that a window sized
 * from a rate of matches lands near it, few enough that where each begins can be kept (windowsOf).
 */
const SIZES = [1000, 1500, 2000, 3000, 4000, 6000, 8000, 12_000, 16_000, 24_000, 32_000, 48_000, 64_000];
const WHOLE_FROM = SIZES.at(-1)!;
/** The first window of a tier, unless the word counts show that a smaller one holds enough (bodiesWindow). */
const FIRST_WINDOW = 2000;
const FIRST_COUNT_WINDOW = 8000;
/** Terms of a window at most: a GIN index checks the whole query for each article it reads (periodTerms). */
const MAX_WINDOW_TERMS = 24;
/** app/search/text-key.ts: an article's key is its day times 2^32 plus its id; a period is 32 days (catalogue_marks). */
const DAY_SPAN = 2 ** 32;
const PERIOD_DAYS = 32;
/** Periods as catalogue_marks writes them: five digits (the day of a key is below 2^20, its period below 32,768). */
const PERIOD_DIGITS = 5;

/** Every word of an article with its marks: what the GIN index articles_doc holds. */
const MARKED_DOC = "(doc || catalogue_marks(catalogue, catalogue_day(date_iso)))";
/** ts_rank on the small tsvector of an article, for tsquery $2. */
const SCORE = `ts_rank('${RANK_WEIGHTS}', ranking, $2::tsquery, 1)`;

/**
 * The first $3 of `scored` (id, newest and score of each article), best first and among equals the newest (as
 * SQLite's bm25 order has it), each row with how many there were. Articles are scored where they are read, so
 * that the rows sorted and counted are small: with their tsvectors they would not fit in memory.
 */
const rankedOf = (scored: string) =>
  `SELECT id, found FROM (SELECT id, newest, score, count(*) OVER ()::int AS found FROM (${scored}) AS scored) AS counted ORDER BY score DESC, newest DESC LIMIT $3`;

/** The first $3 of a tier's newest NEWEST_RANKED matches, ranked. */
const newestRanked = (matches: string) =>
  rankedOf(
    `SELECT id, newest, ${SCORE} AS score FROM articles WHERE ${matches} ORDER BY newest DESC LIMIT ${NEWEST_RANKED}`,
  );

/**
 * The statements of a search, exported for the test of their plans. $1 is a tsquery holding the catalogue's
 * mark or its periods', so that no other index than a GIN one can answer it (see createPool's enable_seqscan);
 * $2 the query alone, for ts_rank.
 */
export const RANKING_SQL = {
  /** Of catalogue $1, the newest article's key and the $2th newest's: the newest $2 articles are those from it on. */
  window:
    "SELECT (SELECT newest FROM articles WHERE catalogue = $1 ORDER BY newest DESC LIMIT 1) AS top, (SELECT newest FROM articles WHERE catalogue = $1 ORDER BY newest DESC OFFSET $2::int - 1 LIMIT 1) AS cut",
  /**
   * Of catalogue $1, how many articles hold each word of $2, and the words starting with each prefix of $3,
   * from the word counts kept for suggestions; and how many articles it has.
   */
  bounds: `SELECT 'word' AS kind, word AS key, coalesce((SELECT docs FROM terms WHERE catalogue = $1 AND term = word), 0) AS sum, 0 AS most FROM unnest($2::text[]) AS word
    UNION ALL
    SELECT 'prefix', prefix, coalesce(sum(docs), 0), coalesce(max(docs), 0) FROM unnest($3::text[]) AS prefix LEFT JOIN terms ON catalogue = $1 AND term >= prefix AND term < prefix || chr(1114111) GROUP BY prefix
    UNION ALL
    SELECT 'articles', '', articles, 0 FROM catalogues WHERE id = $1`,
  /** Matches of $1 counted up to $2. */
  count: `SELECT count(*)::int AS total FROM (SELECT 1 FROM articles WHERE ${MARKED_DOC} @@ $1::tsquery LIMIT $2) AS found`,
  /** Every match, ranked: the first $3, each row with how many matched. OFFSET 0: scored as read (without it the subquery would be merged into the one that counts). */
  ranked: rankedOf(`SELECT id, newest, ${SCORE} AS score FROM articles WHERE ${MARKED_DOC} @@ $1::tsquery OFFSET 0`),
  /** The tiers: the words in the title, keywords or description; elsewhere only. */
  heads: newestRanked("head @@ $1::tsquery"),
  bodies: newestRanked(`${MARKED_DOC} @@ $1::tsquery AND NOT head @@ $2::tsquery`),
  /** The words in the keywords (read next's candidates). */
  keywords: newestRanked("keyword_doc @@ $1::tsquery"),
};

/** A statement: its text and values. */
export type Run = <T extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<T[]>;
/** Where each window of a catalogue begins (its first period, none for the whole), by size, and when that was asked (windowsOf). */
export type WindowCache = Map<number, { first: number | undefined; last: number; at: number }>;
/** A catalogue of the database: its id, how to ask, and where its windows begin. */
export type Ranking = { run: Run; catalogue: number; windows: WindowCache };

type Ranked = { id: string; found: number };

/** How long where a window begins is taken as known: articles come and go slowly, and any period from the first on is a window. */
const WINDOW_KNOWN_MS = 30_000;
const DAY_MS = 86_400_000;
const periodOf = (key: number) => Math.floor(Math.floor(key / DAY_SPAN) / PERIOD_DAYS);

/**
 * The marks of a window of about the newest `size` articles, as a tsquery: the catalogue's mark when the
 * window is the whole of it (or its periods would be too many terms), else its periods from the first up to the
 * newest article's or the next one from today. Where a window begins is asked for once in WINDOW_KNOWN_MS: a window begun a little earlier or later
 * is still every article from some period on, which is all that a search needs (it widens a window that
 * holds too few).
 */
function windowsOf({ run, catalogue, windows }: Ranking) {
  const whole = `'#${catalogue}'`;
  return async (size: number): Promise<string> => {
    if (size >= WHOLE_FROM) return whole;
    let known = windows.get(size);
    if (!known || Date.now() - known.at > WINDOW_KNOWN_MS) {
      const [row] = await run<{ top: string | null; cut: string | null }>(RANKING_SQL.window, [catalogue, size]);
      known = {
        first: row?.cut ? periodOf(Number(row.cut)) : undefined,
        last: row?.top ? periodOf(Number(row.top)) : 0,
        at: Date.now(),
      };
      windows.set(size, known);
    }
    const { first } = known;
    const last = Math.max(known.last, Math.floor(Date.now() / DAY_MS / PERIOD_DAYS) + 1);
    const terms = first === undefined ? [] : periodTerms(first, last);
    if (terms.length === 0 || terms.length > MAX_WINDOW_TERMS) return whole;
    return terms.map(({ digits, prefix }) => `'@${catalogue}:${digits}'${prefix ? ":*" : ""}`).join(" | ");
  };
}

/**
 * Every period from `first` on, up to `last` at least, in few terms: single periods up to the next ten, then
 * tens of periods as prefixes (`0069` for 690 to 699) up to the next hundred, and so on; the last term may
 * reach past `last`, never before `first`.
 */
export function periodTerms(first: number, last: number): { digits: string; prefix: boolean }[] {
  const terms: { digits: string; prefix: boolean }[] = [];
  for (let period = first; period <= last;) {
    let places = 0;
    while (places < PERIOD_DIGITS - 1 && period % 10 ** (places + 1) === 0) places++;
    terms.push({
      digits: String(period)
        .padStart(PERIOD_DIGITS, "0")
        .slice(0, PERIOD_DIGITS - places),
      prefix: places > 0,
    });
    period += 10 ** places;
  }
  return terms;
}

const within = (tsquery: string, marks: string) => `(${tsquery}) & (${marks})`;
/** How much larger than the rate of matches says a window is made: matches are not spread quite evenly. */
const MARGIN = 1.3;
/**
 * The next window, from how many of the `wanted` matches the last one held: large enough to hold them at the
 * same rate, or the whole catalogue (the matches are few: reading them all costs less than windows that find
 * few each).
 */
const wider = (size: number, found: number, wanted: number) =>
  SIZES.find((next) => next > size && next >= (size * wanted * MARGIN) / found) ?? WHOLE_FROM;
/**
 * The smallest window that may hold `wanted` matches when at most `share` of the articles match (from the
 * word counts), with MARGIN; the whole catalogue when the matches are few.
 */
const expectedWindow = (share: number, wanted: number) =>
  SIZES.find((size) => size * share >= wanted * MARGIN) ?? WHOLE_FROM;

/** How many articles at most and at least match, from the word counts. */
async function boundsOf(
  { run, catalogue }: Ranking,
  shape: QueryShape,
): Promise<{ atMost: number; atLeast: number; articles: number }> {
  const operands = shape.parts.flat();
  const words = [...new Set(operands.filter((operand) => !operand.prefix).flatMap((operand) => operand.lexemes))];
  const prefixes = [...new Set(operands.filter((operand) => operand.prefix).flatMap((operand) => operand.lexemes))];
  const rows = await run<{ kind: string; key: string; sum: string; most: string }>(RANKING_SQL.bounds, [
    catalogue,
    words,
    prefixes,
  ]);
  const counts = new Map(
    rows.map((row) => [`${row.kind} ${row.key}`, { sum: Number(row.sum), most: Number(row.most) }]),
  );
  const articles = counts.get("articles ")?.sum ?? 0;
  return {
    ...matchBounds(
      shape,
      (word) => counts.get(`word ${word}`)?.sum ?? 0,
      (prefix) => counts.get(`prefix ${prefix}`) ?? { sum: 0, most: 0 },
      articles,
    ),
    articles,
  };
}

/**
 * The ids of a tier's first `wanted` (matching `tsquery`, ranked by `rankedBy`) among its newest
 * NEWEST_RANKED, from the first window that holds that many.
 */
async function tier(
  run: Run,
  sql: string,
  [tsquery, rankedBy]: [string, string],
  wanted: number,
  windowOf: ReturnType<typeof windowsOf>,
  size = FIRST_WINDOW,
): Promise<{ ids: string[]; found: number }> {
  for (;;) {
    const marks = await windowOf(size);
    const rows = await run<Ranked>(sql, [within(tsquery, marks), rankedBy, wanted]);
    const found = rows[0]?.found ?? 0;
    if (found >= NEWEST_RANKED || size >= WHOLE_FROM || !marks.includes("@"))
      return { ids: rows.map((row) => row.id), found };
    size = wider(size, found, NEWEST_RANKED);
  }
}

/**
 * The first window of the body tier: the smallest that must hold NEWEST_RANKED of its matches, when the word
 * counts tell. The newest `size` articles hold all but the catalogue's non-matching articles and the `heads`
 * (the title tier's matches, all counted when this tier is asked) of them: a word in every article and in no
 * title needs the newest 1,000 alone, where the first window would read 2,000.
 */
function bodiesWindow(bounds: { atMost: number; atLeast: number; articles: number }, heads: number): number {
  const surely = NEWEST_RANKED + (bounds.articles - bounds.atLeast) + heads;
  const sure = SIZES.find((size) => size >= surely) ?? WHOLE_FROM;
  // Otherwise the first window that could hold them, at the most matches the counts allow: smaller ones
  // would be asked in vain (a word in 7 % of the articles: the newest 24,000, not 2,000 and then 32,000).
  const could =
    bounds.articles > 0
      ? expectedWindow(Math.max(0, bounds.atMost - heads) / bounds.articles, NEWEST_RANKED)
      : WHOLE_FROM;
  return Math.min(sure, could);
}

/** How many articles match, counted up to `limit` in windows of the newest until one holds that many. */
async function countUpTo(
  run: Run,
  tsquery: string,
  limit: number,
  windowOf: ReturnType<typeof windowsOf>,
  share: number,
): Promise<number> {
  // No window smaller than the counts allow to hold `limit`: a word in 7 % of the articles is counted in the
  // whole catalogue at once, not in the newest 8,000 first.
  for (let size = Math.max(FIRST_COUNT_WINDOW, expectedWindow(share, limit)); ;) {
    const marks = await windowOf(size);
    const [row] = await run<{ total: number }>(RANKING_SQL.count, [within(tsquery, marks), limit]);
    if (row!.total >= limit || !marks.includes("@")) return row!.total;
    size = wider(size, row!.total, limit);
  }
}

/**
 * The ids of the first `wanted` results of a search in ranked order, with how many matched (up to
 * MAX_COUNTED, and whether more did).
 */
export async function rankedMatches(
  ranking: Ranking,
  shape: QueryShape,
  wanted: number,
): Promise<{ ids: string[]; total: number; more: boolean }> {
  const { run } = ranking;
  const tsquery = tsqueryOfShape(shape);
  const windowOf = windowsOf(ranking);
  const bounds = await boundsOf(ranking, shape);
  let matched =
    bounds.atLeast > EXACT_UP_TO
      ? EXACT_UP_TO + 1
      : bounds.atMost > EXACT_UP_TO
        ? await countUpTo(run, tsquery, EXACT_UP_TO + 1, windowOf, bounds.atMost / Math.max(1, bounds.articles))
        : 0;
  if (matched <= EXACT_UP_TO) {
    const rows = await run<Ranked>(RANKING_SQL.ranked, [within(tsquery, await windowOf(WHOLE_FROM)), tsquery, wanted]);
    matched = rows[0]?.found ?? 0;
    // The word counts are kept with every write: this holds unless they were changed by hand.
    if (matched <= EXACT_UP_TO) return { ids: rows.map((row) => row.id), ...countedUpTo(matched) };
  }
  const heads = await tier(run, RANKING_SQL.heads, [tsquery, tsquery], wanted, windowOf);
  const ids = heads.ids;
  // Fewer title matches than wanted: their window was the whole catalogue, and `found` all of them.
  if (ids.length < wanted)
    ids.push(
      ...(
        await tier(
          run,
          RANKING_SQL.bodies,
          [tsquery, tsquery],
          wanted - ids.length,
          windowOf,
          bodiesWindow(bounds, heads.found),
        )
      ).ids,
    );
  return { ids, total: MAX_COUNTED, more: true };
}

/**
 * The ids of the first `wanted` of the newest NEWEST_RANKED articles whose keywords match `shape` (its words
 * weighted B, the keywords' weight), ranked: read next's candidates, as the SQLite store finds them.
 */
export async function newestKeywordMatches(ranking: Ranking, shape: QueryShape, wanted: number): Promise<string[]> {
  const bounds = await boundsOf(ranking, shape);
  const matching = tsqueryOfShape({ ...shape, weight: "" });
  // Few enough matches in the whole catalogue: read them all at once.
  const first = bounds.atMost <= 2 * NEWEST_RANKED ? WHOLE_FROM : FIRST_WINDOW;
  return (
    await tier(ranking.run, RANKING_SQL.keywords, [matching, tsqueryOfShape(shape)], wanted, windowsOf(ranking), first)
  ).ids;
}
