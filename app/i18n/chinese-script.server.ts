import { Converter } from "opencc-js/t2cn";

/**
 * Traditional Chinese characters as Simplified ones, by OpenCC's tables (opencc-js, its Traditional to
 * Simplified part only: 109 KB; server only). Search folds both scripts to Simplified so that a query in
 * either finds text in the other (docs/decisions/046). The tables are built on first use, once a process.
 */
let convert: ((text: string) => string) | undefined;

export function simplifiedChinese(text: string): string {
  convert ??= Converter({ from: "tw", to: "cn" });
  return convert(text);
}
