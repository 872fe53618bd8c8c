import Table from "cli-table3";
import stringWidth from "string-width";
import { SOURCE_KINDS } from "~/counts/tally";
import { rate, type Figures, type Ranked } from "./figures";
import {
  count,
  duration,
  FEDIVERSE_HEAD,
  fediverseCells,
  NO_DATA,
  pageName,
  percent,
  periodName,
  SOURCE_NAMES,
  vital,
} from "./format";
import type { Report } from "./report.server";

/**
 * The operator's report as text for a terminal (`npm run report`): the same figures as the page
 * (page.server.tsx), with tables by cli-table3 (which measures wide characters) and bars of block
 * characters instead of the charts.
 */

/** What the store holds is shown as text: a control character (a terminal's escape) never reaches the terminal. */
const clean = (text: string) => text.replace(/\p{C}/gu, "\uFFFD");

const BLOCKS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
const SPARKS = "▁▂▃▄▅▆▇█";

/** Pure: `value` of `max` as a bar of `width` characters, in eighths. */
export function bar(value: number, max: number, width = 16): string {
  const eighths = max > 0 ? Math.round(Math.min(1, Math.max(0, value / max)) * width * 8) : 0;
  return "█".repeat(Math.floor(eighths / 8)) + BLOCKS[eighths % 8];
}

/** Pure: one character per value, its height against the largest; "·" for none. */
export function sparkline(values: number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((value) => (value <= 0 || max === 0 ? "·" : SPARKS[Math.min(7, Math.floor((value / max) * 7.999))]))
    .join("");
}

/** A table without outer borders: a line under the head, columns two spaces apart, figures to the right. */
function table(head: string[], rows: string[][], numeric = head.map((_, index) => index > 0)): string {
  const blank = {
    top: "",
    "top-mid": "",
    "top-left": "",
    "top-right": "",
    bottom: "",
    "bottom-mid": "",
    "bottom-left": "",
    "bottom-right": "",
    left: "  ",
    "left-mid": "",
    mid: "",
    "mid-mid": "",
    right: "",
    "right-mid": "",
    middle: "  ",
  };
  const lines = new Table({
    head,
    chars: blank,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
    colAligns: numeric.map((right) => (right ? "right" : "left")),
  });
  lines.push(...rows);
  const [first, ...rest] = lines
    .toString()
    .split("\n")
    .map((line) => line.trimEnd());
  const width = Math.max(...[first!, ...rest].map((line) => stringWidth(line)));
  return [first, `  ${"─".repeat(Math.max(0, width - 2))}`, ...rest].join("\n");
}

function ranked(title: string, keyName: string, unit: string, entries: Ranked[], total: number): string {
  if (entries.length === 0) return `${title}: ${NO_DATA}`;
  return `${title}\n${table(
    [keyName, unit, "Share", ""],
    entries.map((entry) => [
      clean(entry.key),
      count(entry.n),
      percent(rate(entry.n, total)),
      bar(entry.n, entries[0]!.n),
    ]),
    [false, true, true, false],
  )}`;
}

function articles({ articles }: Figures): string {
  if (articles.top.length === 0) return "No article was viewed in this period.";
  return `The ${articles.top.length} most viewed of ${count(articles.viewed)} articles viewed; completion: ends reached per view.\n${table(
    ["Article", "Views", "Completion", "Engaged/view"],
    articles.top.map((article) => [
      clean(article.page),
      count(article.views),
      percent(article.completion),
      duration(article.engagedSeconds),
    ]),
  )}`;
}

function funnel({ funnel, donatePanel }: Figures): string {
  const panel = `Readers without JavaScript who opened the donation panel (#donate): ${donatePanel > 0 ? count(donatePanel) : NO_DATA}`;
  if (!funnel) return `The donation pop-up: ${NO_DATA}.\n${panel}`;
  const steps: [string, number][] = [
    ["“Maybe Later”", funnel.later],
    ["Closed by the backdrop", funnel.backdrop],
    ["“Donate Now”", funnel.now],
    ["No choice (the page was left)", Math.max(0, funnel.shown - funnel.later - funnel.backdrop - funnel.now)],
  ];
  return `The pop-up was shown ${count(funnel.shown)} times; each answer per showing.\n${table(
    ["Answer", "Times", "Rate", ""],
    steps.map(([label, n]) => [label, count(n), percent(rate(n, funnel.shown)), bar(n, funnel.shown)]),
    [false, true, true, false],
  )}\n${panel}`;
}

function fediverse({ fediverse }: Figures): string {
  if (!fediverse) return `Not followable (FEDIVERSE=on), or ${NO_DATA} in this period.`;
  const { totals, days } = fediverse;
  return `Followers ${totals.followers === undefined ? NO_DATA : count(totals.followers)}   New ${count(totals.follows)}   Left ${count(totals.unfollows)}   Delivered ${count(totals.delivered)}   Failed tries ${count(totals.failed)}   Given up ${count(totals.givenUp)}
Followers are counted at each day's first look; a failed try is tried again, until the delivery is given up.
${table(FEDIVERSE_HEAD, days.map(fediverseCells), [false, true, true, true, true, true, true])}`;
}

function webVitals(vitals: Report["vitals"]): string {
  if ("unavailable" in vitals) return `Not available: ${clean(vitals.unavailable)}`;
  const since = vitals.since
    ? ` since it started (${new Date(vitals.since).toISOString().slice(0, 16).replace("T", " ")} UTC)`
    : "";
  const intro = `As the process received them${since}; p75 estimated from the histograms' buckets. Other origins measure their own (Prometheus has all).`;
  if (vitals.templates.length === 0) return `${intro}\nNo page measured yet.`;
  return `${intro}\n${table(
    ["Template", "Metric", "Pages", "p75", "Rating"],
    vitals.templates.flatMap((template) =>
      template.metrics.map((figure, index) => [
        index === 0 ? clean(`${pageName(template.route)} (${template.route})`) : "",
        figure.metric,
        count(figure.pages),
        vital(figure.metric, figure.p75),
        figure.rating ?? NO_DATA,
      ]),
    ),
    [false, false, true, true, false],
  )}`;
}

/** Pure: the report as text, the same figures as the page. */
export function reportText(report: Report): string {
  const { figures } = report;
  const heading = (text: string) => `\n${text}\n${"═".repeat(text.length)}`;
  return [
    `Report: ${clean(report.site)}, ${periodName(figures.period)}`,
    report.sites.length > 1 ? `Sites: ${report.sites.map(clean).join(", ")} (--site to choose)` : "",
    heading("Readers"),
    `Views ${count(figures.views)}   Visitors ${count(figures.visitors)} (distinct per day, added up)   Articles viewed ${count(figures.articles.viewed)}`,
    `Completion ${percent(figures.articles.completion)} (article ends per view)   Engaged per view ${duration(figures.articles.engagedSeconds)}`,
    `Views per day, ${figures.period.from} … ${figures.period.to} (highest ${count(Math.max(...figures.daily.map((entry) => entry.views)))}):`,
    `  ${sparkline(figures.daily.map((entry) => entry.views))}`,
    `Visitors per day (highest ${count(Math.max(...figures.daily.map((entry) => entry.visitors)))}):`,
    `  ${sparkline(figures.daily.map((entry) => entry.visitors))}`,
    heading("Top articles"),
    articles(figures),
    figures.pages.length > 0
      ? `Other pages, by kind\n${table(
          ["Pages", "Views"],
          figures.pages.map((entry) => [clean(pageName(entry.page)), count(entry.views)]),
        )}`
      : "",
    heading("Sources"),
    "Counted once per visitor and day, on their first view.",
    ...SOURCE_KINDS.map((kind) =>
      ranked(
        SOURCE_NAMES[kind],
        kind === "referrer" ? "Host" : "Value",
        "Visitors",
        figures.sources[kind].top,
        figures.sources[kind].visitors,
      ),
    ),
    heading("Donation pop-up"),
    funnel(figures),
    heading("Links to other sites"),
    ranked("Outbound links", "Host", "Clicks", figures.outbound.top, figures.outbound.total),
    ranked("Embeds", "Host", "Clicks", figures.embeds.top, figures.embeds.total),
    heading("Followers on the social web"),
    fediverse(figures),
    heading("Web Vitals, p75 per template"),
    webVitals(report.vitals),
    `\nDays are UTC; a reader who comes on three days counts as three visitors. Counts reach the store within 5 s.`,
    `Read from ${report.stores.length === 0 ? "no store: nothing was counted for this site yet" : report.stores.map(clean).join(", ")}${report.unread > 0 ? `, and ${report.unread} more not read` : ""}. Made ${report.made.toISOString()}.`,
  ]
    .filter((line) => line !== "")
    .join("\n")
    .concat("\n");
}
