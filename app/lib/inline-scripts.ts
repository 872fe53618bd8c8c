import { Parser } from "htmlparser2";

/** Script types the browser runs; anything else (JSON-LD, say) is a data block that CSP does not govern. */
const RUNNABLE = new Set(["", "module", "text/javascript", "application/javascript"]);

/**
 * The text of every inline script the browser would run in `html`, exactly as written (script content is
 * raw text: no entities decoded), in document order, each once. Read with an HTML tokenizer, so a
 * `<script>` inside a comment, an attribute or another script's text is not mistaken for one.
 */
export function inlineScripts(html: string): string[] {
  const found = new Set<string>();
  let current: string | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      const type = (attributes.type ?? "").trim().toLowerCase();
      if (name === "script" && attributes.src === undefined && RUNNABLE.has(type)) current = "";
    },
    ontext(text) {
      if (current !== undefined) current += text;
    },
    onclosetag(name) {
      if (name !== "script" || current === undefined) return;
      found.add(current);
      current = undefined;
    },
  });
  parser.end(html);
  return [...found];
}
