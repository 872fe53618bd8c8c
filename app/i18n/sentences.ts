/** Languages that write one sentence after another with no space between them: Chinese, Japanese, Cantonese. */
const UNSPACED = new Set(["zh", "ja", "yue"]);

/** Two sentences of a language joined as it joins them ("…文本显示。其结尾被省略。", "… plain text. Its end is left out."). */
export function joinSentences(lang: string, first: string, second: string): string {
  const language = lang.split("-", 1)[0]!.toLowerCase();
  return `${first}${UNSPACED.has(language) ? "" : " "}${second}`;
}
