/** Edit distance with transpositions (optimal string alignment), stopping once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, index) => index);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        value = Math.min(value, previous2[j - 2]! + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[y.length]!;
}

/** How many indexed words are compared with a misspelt one, at most, in each of the two passes. */
const CANDIDATES = 2000;

type Near = (from: string, to: string, limit: number) => { term: string; doc: number }[];

/** The range of indexed words that start with `prefix`: [prefix, the next prefix). */
function range(prefix: string): [string, string] {
  const letters = [...prefix];
  const last = letters.pop()!;
  return [prefix, letters.join("") + String.fromCodePoint(last.codePointAt(0)! + 1)];
}

/**
 * The indexed word closest to `word` (one edit for short words, two for longer), the most common among
 * equals: first among the words that start with its first two letters, then, when none is close enough,
 * with its first letter. Words of scripts without spaces are not guessed at.
 */
export function suggestWord(word: string, near: Near): string | undefined {
  const letters = [...word];
  if (letters.length < 3 || !/^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{N}]+$/u.test(word))
    return undefined;
  const max = letters.length <= 4 ? 1 : 2;
  for (const prefix of [letters.slice(0, 2).join(""), letters[0]!]) {
    let best: { term: string; distance: number; doc: number } | undefined;
    for (const { term, doc } of near(...range(prefix), CANDIDATES)) {
      if (term === word) continue;
      const distance = editDistance(word, term, max);
      if (distance > max) continue;
      if (!best || distance < best.distance || (distance === best.distance && doc > best.doc))
        best = { term, distance, doc };
    }
    if (best) return best.term;
  }
  return undefined;
}
