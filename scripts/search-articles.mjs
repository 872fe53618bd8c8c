// The articles of `npm run bench:search`: about 1,500 words each, English-like prose of made-up words with
// common and topical ones (a tenth with Japanese, a tenth with Thai), the same text in every run.

/** A deterministic pseudo-random sequence, so every run indexes the same text. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export const COMMON =
  "the of and to in is that it for as with on be by this are from at or have an not but what all were when we there can your which their".split(
    " ",
  );
export const TOPICAL =
  "meditation breath mind zazen sitting practice teacher retreat silence posture compassion awareness koan sangha dharma bell cushion walking attention moment".split(
    " ",
  );
const JAPANESE = "毎朝の瞑想で心を調える。坐禅は静かな場所と坐蒲があれば始められます。";
const THAI = "ฝึกสมาธิทุกวันช่วยให้จิตใจสงบ และมีสติอยู่กับลมหายใจ";

/** A vocabulary of made-up words, drawn with a Zipf-like skew as words of real prose are. */
export function makeWords(next) {
  const syllables = "ka ri mo ten sa lu vi po ne da ro mi shu ta ge ba fo ly ze qu".split(" ");
  const words = Array.from({ length: 20_000 }, () =>
    Array.from({ length: 2 + Math.floor(next() * 3) }, () => syllables[Math.floor(next() * syllables.length)]).join(""),
  );
  return () => {
    const roll = next();
    if (roll < 0.4) return COMMON[Math.floor(next() * COMMON.length)];
    if (roll < 0.45) return TOPICAL[Math.floor(next() * TOPICAL.length)];
    return words[Math.floor(words.length * next() ** 3)];
  };
}

export function makeArticle(index, next, word) {
  const words = Array.from({ length: 1500 }, word);
  const body = [];
  for (let start = 0; start < words.length; start += 60) body.push(words.slice(start, start + 60).join(" ") + ".");
  if (index % 10 === 0) body.push(JAPANESE);
  if (index % 10 === 5) body.push(THAI);
  return {
    slug: `article-${index}`,
    title: `${word()} ${TOPICAL[index % TOPICAL.length]} ${word()} ${index}`,
    description: Array.from({ length: 25 }, word).join(" "),
    date: new Date(Date.UTC(2020, 0, 1) + index * 3_600_000).toISOString().slice(0, 10),
    keywords: [TOPICAL[index % TOPICAL.length], `${word()} ${word()}`],
    body: body.join("\n\n"),
  };
}
