/**
 * The source of an inline <script> that calls `run` with `args`. `run` is serialised with
 * Function.toString(), so it must be self-contained: no outside names, no comments (they would go
 * into every page). The arguments are JSON, with `<` escaped so none can close the script element.
 */
export function inlineCall<Args extends unknown[]>(run: (...args: Args) => void, ...args: Args): string {
  const json = args.map((arg) => JSON.stringify(arg).replace(/</g, "\\u003c"));
  return `(${run.toString()})(${json.join(",")})`;
}
