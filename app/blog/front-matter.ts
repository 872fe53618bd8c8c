import { parseDocument } from "yaml";

/**
 * Front matter is YAML data and nothing else: no engine for another language is reachable (gray-matter ran a
 * `---js` block with eval), no custom tags, and few aliases, so a "billion laughs" block is refused at once.
 */
const YAML_OPTIONS = { schema: "core", uniqueKeys: true, prettyErrors: false, logLevel: "silent" } as const;
const MAX_ALIASES = 20;

export type FrontMatterFile = { data: Record<string, unknown>; content: string };

/** The opening fence, alone on the first line; anything after `---` on that line names another language. */
const OPENING = /^---[ \t]*\r?\n/;
/** The closing fence, alone on its line; the body starts on the next line. */
const CLOSING = /^---[ \t]*$/m;

/**
 * Splits a content file into its YAML front matter and its markdown body. Throws an Error whose first line
 * says what is wrong (the file source logs it and skips the file).
 */
export function parseFrontMatter(text: string): FrontMatterFile {
  const file = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (!file.startsWith("---")) return { data: {}, content: file };
  const opening = OPENING.exec(file);
  if (!opening) {
    const line = file.slice(0, file.search(/\r?\n|$/));
    throw new Error(
      `front matter must be YAML, opened by "---" alone on the first line (not ${JSON.stringify(line.slice(0, 24))})`,
    );
  }
  const rest = file.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw new Error('front matter is not closed by a line "---"');
  const yaml = rest.slice(0, closing.index);
  const content = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, "");
  const data = yamlData(yaml);
  if (data === null || data === undefined) return { data: {}, content };
  if (typeof data !== "object" || Array.isArray(data)) throw new Error("front matter must be a mapping of fields");
  return { data: data as Record<string, unknown>, content };
}

/** The YAML's value; an error or a warning (an unknown tag such as `!!js/function`) refuses the file. */
function yamlData(yaml: string): unknown {
  if (yaml.trim() === "") return {};
  const document = parseDocument(yaml, YAML_OPTIONS);
  const [problem] = [...document.errors, ...document.warnings];
  if (problem) throw new Error(`front matter is not valid YAML: ${problem.message.split("\n")[0]}`);
  return document.toJS({ maxAliasCount: MAX_ALIASES });
}
