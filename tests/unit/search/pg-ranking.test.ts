import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { periodTerms } from "~/search/pg-ranking.server";
import { matchBounds } from "~/search/pg-text";

// The windows of the newest articles (app/search/pg-ranking.server.ts): a window must hold every period from
// its first on (articles outside it are older than all inside), in few terms.
describe("the periods of a window", () => {
  it("covers every period from the first to the last, none before the first, in at most nine terms a digit", () => {
    fc.assert(
      fc.property(fc.nat({ max: 32_767 }), fc.nat({ max: 32_767 }), (a, b) => {
        const [first, last] = a <= b ? [a, b] : [b, a];
        const terms = periodTerms(first, last);
        const covers = (period: number) => {
          const digits = String(period).padStart(5, "0");
          return terms.some((term) => (term.prefix ? digits.startsWith(term.digits) : digits === term.digits));
        };
        for (const period of [first, last, Math.floor((first + last) / 2), first + 1, last - 1])
          if (period >= first && period <= last) expect(covers(period), String(period)).toBe(true);
        if (first > 0) expect(covers(first - 1)).toBe(false);
        // Each term begins where the one before ends: no period is asked for twice, none is skipped.
        let next = first;
        for (const term of terms) {
          const start = Number(term.digits.padEnd(5, "0"));
          expect(start).toBe(next);
          next = start + 10 ** (5 - term.digits.length);
        }
        expect(next).toBeGreaterThan(last);
        expect(terms.length).toBeLessThanOrEqual(9 * 5);
      }),
    );
    // The newest two thousand articles of a site that publishes daily, weekly.
    expect(periodTerms(640, 652).map((term) => term.digits)).toEqual(["0064", "0065"]);
    expect(periodTerms(647, 652).map((term) => term.digits)).toEqual(["00647", "00648", "00649", "0065"]);
    expect(periodTerms(213, 652)).toHaveLength(7 + 8 + 4);
  });
});

// How many articles a search matches, bounded from the word counts alone (app/search/pg-text.ts): the ranking
// takes the cheap road on these bounds, so they must hold for any articles and any query.
describe("the bounds of a search", () => {
  it("hold the number of matching articles between them, for any articles and queries", () => {
    const word = fc.constantFrom<string>("sit", "sitting", "bell", "belly", "breath", "zen", "dharma");
    const operand = fc.record({ lexemes: fc.array(word, { minLength: 1, maxLength: 2 }), prefix: fc.boolean() });
    const shape = fc.record({
      all: fc.boolean(),
      parts: fc.array(fc.array(operand, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
      weight: fc.constant("" as const),
    });
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(word, { maxLength: 5 }), { maxLength: 30 }), shape, (articles, query) => {
        const docs = (lexeme: string) => articles.filter((held) => held.includes(lexeme)).length;
        const terms = [...new Set(articles.flat())];
        const prefixed = (prefix: string) => {
          const counts = terms.filter((term) => term.startsWith(prefix)).map(docs);
          return { sum: counts.reduce((sum, count) => sum + count, 0), most: Math.max(0, ...counts) };
        };
        const holds = (held: string[], lexeme: string, prefix: boolean) =>
          held.some((term) => (prefix ? term.startsWith(lexeme) : term === lexeme));
        // A phrase of several words may match wherever all its words are, or nowhere: both are bounded.
        const matches = (phrases: boolean) =>
          articles.filter((held) => {
            const part = (operands: (typeof query.parts)[number]) =>
              operands.some(({ lexemes, prefix }) =>
                lexemes.length > 1 && !phrases ? false : lexemes.every((lexeme) => holds(held, lexeme, prefix)),
              );
            return query.all ? query.parts.every(part) : query.parts.some(part);
          }).length;
        const { atMost, atLeast } = matchBounds(query, docs, prefixed, articles.length);
        expect(atLeast).toBeLessThanOrEqual(matches(false));
        expect(atMost).toBeGreaterThanOrEqual(matches(true));
      }),
      { numRuns: 500 },
    );
  });
});
