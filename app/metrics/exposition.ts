/** One sample of a Prometheus text exposition: its name, labels and value. */
export type Sample = { name: string; labels: Record<string, string>; value: number };

const SAMPLE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;
const unescape = (value: string) => value.replace(/\\(.)/g, (_, char: string) => (char === "n" ? "\n" : char));
/** A sample's value or a bucket's bound: a number, "+Inf" or "-Inf". */
export const valueOf = (text: string) =>
  /^[+-]?Inf$/.test(text) ? (text.startsWith("-") ? -Infinity : Infinity) : Number(text);

/**
 * Pure: the samples of a Prometheus text exposition (version 0.0.4, as prom-client writes it), for the
 * operator's report and the tests. Comments and blank lines are skipped; a line that is no sample throws,
 * so that a wrong address (a page, not an exposition) is said rather than read as "no data".
 */
export function samples(exposition: string): Sample[] {
  return exposition
    .split("\n")
    .filter((line) => line.trim() && !line.startsWith("#"))
    .map((line) => {
      const match = SAMPLE.exec(line);
      if (!match) throw new Error(`not a sample line: ${line.slice(0, 100)}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? "").matchAll(LABEL)].map((label) => [label[1]!, unescape(label[2]!)]),
      );
      return { name: match[1]!, labels, value: valueOf(match[3]!) };
    });
}
