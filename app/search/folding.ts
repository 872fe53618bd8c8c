import { simplifiedChinese } from "~/i18n/chinese-script.server";

/**
 * Spellings that are one word to a reader: Traditional and Simplified Chinese (OpenCC's tables,
 * app/i18n/chinese-script.server.ts), the Japanese forms of CJK characters and a few variants, and the
 * Sanskrit and Pali forms of Buddhist terms. Each group of the tables below folds to its first member.
 */
// Both tables stay as written, several groups a line (the formatter would give each a line of its own).
// prettier-ignore
const CHARACTER_GROUPS = [
  "禅禪", "佛仏", "经經経", "观觀観", "国國", "学學", "会會", "宝寶", "灯燈", "斋齋斎", "净淨浄", "圆圓円",
  "静靜", "乐樂楽", "圣聖", "罗羅", "弥彌", "证證証", "说說説", "觉覺覚", "礼禮", "万萬", "无無", "来來",
  "实實", "声聲", "读讀読", "参參", "传傳伝", "藏蔵", "坛壇", "点點", "体體", "发發発", "变變変", "为為爲",
  "广廣広", "气氣気", "归歸帰", "与與", "类類", "录錄録", "门門", "师師", "尔爾", "莲蓮", "华華", "龙龍竜",
  "钟鐘", "镜鏡", "泽澤沢", "释釋釈", "医醫", "总總総", "恒恆", "导導", "庄莊荘", "寿壽", "岁歲歳", "亲親",
  "业業", "处處処", "轮輪", "坐座", "关關関", "惠慧", "悦悅", "图圖図", "愿願", "众眾衆", "乘乗", "缘緣縁",
  "报報", "应應応", "显顯顕", "鸣鳴", "听聽聴", "忏懺", "诵誦", "赞讚賛", "义義", "严嚴厳", "峰峯",
];

// prettier-ignore
const WORD_GROUPS = [
  "dharma dhamma", "nirvana nibbana", "sutra sutta", "sutras suttas", "karma kamma", "bodhisattva bodhisatta",
  "arhat arahant arahat", "sangha samgha", "vipassana vipashyana vipasyana", "anatman anatta", "dukkha duhkha",
  "prajna panna pañña", "metta maitri", "sunyata shunyata sunnata", "siddhartha siddhattha", "gautama gotama",
  "bhikkhu bhiksu bhikshu", "bhikkhuni bhiksuni bhikshuni", "skandha khandha", "samsara sansara", "tathagata tathagatha",
  "abhidharma abhidhamma", "dharmapada dhammapada", "paramita parami", "klesha kilesa klesa", "smrti sati smriti",
  "dhyana jhana", "amitabha amitayus", "avalokitesvara avalokiteshvara", "manjusri manjushri",
];

/** Letters that are not a base letter plus a mark, so that removing marks leaves them as they are. */
const LETTER_FOLD: Record<string, string> = {
  đ: "d",
  ð: "d",
  ł: "l",
  ø: "o",
  ħ: "h",
  ı: "i",
  ß: "ss",
  æ: "ae",
  œ: "oe",
};

const ASCII = /^[\x20-\x7e]*$/;
const HAN = /[\u3400-\u9fff\uf900-\ufaff]/u;
/** Zero-width joiner and non-joiner: how a Sinhala conjunct is typed, or not (ශ්‍රී, ශ්රී); folded out. */
const JOINERS = /[\u200c\u200d]/g;

const characterFold = new Map<string, string>();
for (const group of CHARACTER_GROUPS) {
  const [canonical, ...others] = [...group];
  for (const other of others) characterFold.set(other, canonical!);
}

const wordFold = new Map<string, string>();
for (const group of WORD_GROUPS) {
  const [canonical, ...others] = group.split(" ");
  for (const other of others) wordFold.set(plainLatin(other), canonical!);
}

/** Lower case without the marks on Latin letters, as SQLite's unicode61 sees a word: "Thiền" → "thien", "Đạo" → "đao". */
export function withoutMarks(word: string): string {
  // Most words of most articles: nothing to take off.
  if (ASCII.test(word)) return word.toLowerCase();
  return word
    .normalize("NFKD")
    .replace(/(\p{Script=Latin})\p{M}+/gu, "$1")
    .normalize("NFC")
    .toLowerCase();
}

/** withoutMarks, and letters that unicode61 keeps apart folded too: "Đạo" → "dao", "nibbāna" → "nibbana". */
export function plainLatin(word: string): string {
  return withoutMarks(word).replace(/[đðłøħıßæœ]/g, (letter) => LETTER_FOLD[letter]!);
}

/** True when the text has a CJK ideograph. */
export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/**
 * A word as the index compares it: marks off Latin letters, joiners out, Traditional Chinese as Simplified,
 * variant characters and transliterations folded.
 */
export function foldWord(word: string): string {
  const plain = plainLatin(word).replace(JOINERS, "");
  const folded = wordFold.get(plain);
  if (folded) return folded;
  if (!HAN.test(plain)) return plain;
  let result = "";
  for (const character of simplifiedChinese(plain)) result += characterFold.get(character) ?? character;
  return result;
}
