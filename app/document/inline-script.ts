/**
 * The source of an inline <script> that calls `run` with `args`. `run` is serialised with
 * Function.toString(), so it must be self-contained: no outside names, no comments (they would go
 * into every page). The arguments are JSON, escaped so none can close the script element.
 */
export function inlineCall<Args extends unknown[]>(run: (...args: Args) => void, ...args: Args): string {
  const json = args.map((arg) => escapeScriptData(JSON.stringify(arg)));
  return `(${run.toString()})(${json.join(",")})`;
}

const SCRIPT_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** JSON made safe inside a <script> element: nothing in it can end the element or the line (as Remix escapes its own). */
export function escapeScriptData(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (char) => SCRIPT_ESCAPES[char]!);
}
