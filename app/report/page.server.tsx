import { createHash } from "node:crypto";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { SOURCE_KINDS } from "~/counts/tally";
import { Bar, DailyChart, VitalStrip } from "./charts";
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
import { DEFAULT_DAYS, REPORT_DAYS } from "./period";
import type { Report } from "./report.server";

/**
 * The operator's report as one HTML page (the metrics listener's `/report`): no script, its style inline
 * and allowed by its hash alone, its charts SVG drawn here. React renders it, so every value read from
 * the store (a referrer's host, a utm value) is escaped as text.
 */

const STYLE = `
:root{color-scheme:light;--ink:#1c232b;--muted:#56606b;--line:#dde1e6;--views:#2f5d8a;--visitors:#c2602b;--track:#eef1f4;--good:#1f7a45;--ni:#b26a00;--poor:#b3262f;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:#fff}
body{margin:0 auto;max-width:66rem;padding:1rem}
h1{font-size:1.3rem;margin:0}h2{font-size:1.1rem;margin:2rem 0 .5rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}h3{font-size:.95rem;margin:1rem 0 .25rem}
p{margin:.25rem 0}.muted,caption,small{color:var(--muted)}a{color:var(--views)}
form{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin:.75rem 0}label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted)}
select,button{font:inherit;padding:.35rem .5rem;min-height:2.5rem;max-width:100%}
.totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(8.5rem,1fr));gap:.5rem;margin:.5rem 0}
.total{border:1px solid var(--line);border-radius:6px;padding:.4rem .7rem}.total b{display:block;font-size:1.4rem;font-variant-numeric:tabular-nums}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(19rem,1fr));gap:0 2rem;align-items:start}
table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums;margin-bottom:.5rem}caption{text-align:left;font-size:.85rem}
th,td{padding:.3rem .35rem;border-bottom:1px solid var(--line);text-align:right;vertical-align:top}
th{font-size:.8rem;font-weight:600;color:var(--muted)}th:first-child,td:first-child{text-align:left;overflow-wrap:anywhere}
.chart{display:block;width:100%;height:auto}.wide{display:none}@media (min-width:40rem){.narrow{display:none}.wide{display:block}}.chart text{font-size:11px;fill:var(--muted)}.chart .grid{stroke:var(--line)}
.legend{display:flex;gap:1rem;font-size:.85rem}.legend i{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:-.1rem}
.bar{display:block;width:100%;height:6px;margin-top:3px}.strip{display:block;width:100%;height:8px;margin-top:3px}
td+td{white-space:nowrap}.days td:first-child{white-space:nowrap;overflow-wrap:normal}@media (max-width:40rem){.days th,.days td{padding:.3rem .15rem}}
@media (max-width:40rem){.articles tr{display:grid;grid-template-columns:repeat(3,auto);column-gap:.5rem}.articles tr>:first-child{grid-column:1/-1}.articles th,.articles td{border:0}.articles tr{border-bottom:1px solid var(--line);padding:.2rem 0}}
.views{fill:var(--views);background:var(--views)}.share{fill:var(--visitors)}.visitors{fill:none;stroke:var(--visitors);stroke-width:2.5;background:var(--visitors)}.track{fill:var(--track)}
.good{fill:#cfe9d9;color:var(--good)}.ni{fill:#f6e2bd;color:var(--ni)}.poor{fill:#f3cdd0;color:var(--poor)}.mark{fill:var(--ink)}
.rating{font-size:.8rem;font-weight:600}.none{color:var(--muted);font-style:italic}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(17rem,1fr));gap:.5rem 1.5rem;align-items:start}
details{margin:.5rem 0}summary{cursor:pointer;color:var(--views)}footer{margin-top:2rem;font-size:.85rem;color:var(--muted)}
`;

/** The Content-Security-Policy of the report's pages: nothing but this style sheet, no script at all. */
export const REPORT_POLICY = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

function Document({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>{children}</body>
    </html>
  );
}

const page = (title: string, body: ReactNode) =>
  `<!doctype html>${renderToStaticMarkup(<Document title={title}>{body}</Document>)}`;

/** The form that chooses a site and a period: a GET to the same page, no script. */
function Choice({ site, sites, days }: { site?: string; sites: string[]; days: number }) {
  return (
    <form method="get" action="/report">
      {sites.length > 1 ? (
        <label>
          Site
          <select name="site" defaultValue={site}>
            {sites.map((label) => (
              <option key={label}>{label}</option>
            ))}
          </select>
        </label>
      ) : (
        site && <input type="hidden" name="site" value={site} />
      )}
      <label>
        Period
        <select name="days" defaultValue={String(days)}>
          {REPORT_DAYS.map((option) => (
            <option key={option} value={option}>
              last {option} days
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Show</button>
    </form>
  );
}

function Total({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="total">
      {label}
      <b>{value}</b>
      {note && <small>{note}</small>}
    </div>
  );
}

/** Shown instead of a share: NO_DATA in the muted style. */
const Share = ({ share }: { share: number | undefined }) =>
  share === undefined ? <span className="none">{NO_DATA}</span> : <>{percent(share)}</>;

/** A table: a caption, the columns' heads, and one row per entry, its first cell naming it. */
function Table({
  caption,
  head,
  rows,
  className,
}: {
  caption?: ReactNode;
  head: string[];
  rows: { key: string; cells: ReactNode[] }[];
  className?: string;
}) {
  return (
    <table className={className}>
      {caption && <caption>{caption}</caption>}
      <thead>
        <tr>
          {head.map((name) => (
            <th key={name} scope="col">
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            {row.cells.map((cell, index) => (
              <td key={index}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A name with a bar of its figure's share of the largest, for a table's first cell. */
const Named = ({ name, value, max }: { name: string; value: number; max: number }) => (
  <>
    {name}
    <Bar value={value} max={max} />
  </>
);

function RankedTable({
  caption,
  keyName,
  unit,
  ranked,
  total,
}: {
  caption: string;
  keyName: string;
  unit: string;
  ranked: Ranked[];
  total: number;
}) {
  if (ranked.length === 0)
    return (
      <p className="none">
        {caption}: {NO_DATA}
      </p>
    );
  const rows = ranked.map((entry) => ({
    key: entry.key,
    cells: [
      <Named key="name" name={entry.key} value={entry.n} max={ranked[0]!.n} />,
      count(entry.n),
      percent(rate(entry.n, total)),
    ],
  }));
  return <Table caption={caption} head={[keyName, unit, "Share"]} rows={rows} />;
}

function Articles({ articles }: { articles: Figures["articles"] }) {
  if (articles.top.length === 0) return <p className="none">No article was viewed in this period.</p>;
  const most = articles.top[0]!.views;
  const rows = articles.top.map((article) => ({
    key: article.page,
    cells: [
      <Named key="name" name={article.page} value={article.views} max={most} />,
      count(article.views),
      <>
        <Share share={article.completion} />
        {article.completion !== undefined && <Bar value={article.completion} max={1} className="share" />}
      </>,
      article.engagedSeconds === undefined ? <span className="none">{NO_DATA}</span> : duration(article.engagedSeconds),
    ],
  }));
  const caption = `The ${articles.top.length} most viewed of ${count(articles.viewed)} articles viewed. Completion: ends reached per view.`;
  return (
    <Table
      className="articles"
      caption={caption}
      head={["Article", "Views", "Completion", "Engaged per view"]}
      rows={rows}
    />
  );
}

function Funnel({ figures }: { figures: Figures }) {
  const { funnel, donatePanel } = figures;
  const panel = (
    <p>
      Readers without JavaScript who opened the donation panel (#donate):{" "}
      {donatePanel > 0 ? count(donatePanel) : <span className="none">{NO_DATA}</span>}
    </p>
  );
  if (!funnel)
    return (
      <>
        {<p className="none">The donation pop-up: {NO_DATA}.</p>}
        {panel}
      </>
    );
  const steps = [
    { label: "“Maybe Later”", n: funnel.later },
    { label: "Closed by the backdrop", n: funnel.backdrop },
    { label: "“Donate Now”", n: funnel.now },
    {
      label: "No choice (the page was left)",
      n: Math.max(0, funnel.shown - funnel.later - funnel.backdrop - funnel.now),
    },
  ];
  const rows = steps.map((step) => ({
    key: step.label,
    cells: [
      <Named key="name" name={step.label} value={step.n} max={funnel.shown} />,
      count(step.n),
      percent(rate(step.n, funnel.shown)),
    ],
  }));
  return (
    <>
      <Table
        caption={`The pop-up was shown ${count(funnel.shown)} times; each answer per showing.`}
        head={["Answer", "Times", "Rate"]}
        rows={rows}
      />
      {panel}
    </>
  );
}

function Fediverse({ fediverse }: { fediverse: Figures["fediverse"] }) {
  if (!fediverse) return <p className="none">Not followable (FEDIVERSE=on), or {NO_DATA} in this period.</p>;
  const { totals, days } = fediverse;
  return (
    <>
      <div className="totals">
        <Total
          label="Followers"
          value={totals.followers === undefined ? NO_DATA : count(totals.followers)}
          note="at the last day's first look"
        />
        <Total label="New" value={count(totals.follows)} />
        <Total label="Left" value={count(totals.unfollows)} />
        <Total label="Delivered" value={count(totals.delivered)} />
        <Total label="Failed tries" value={count(totals.failed)} note="each tried again, until given up" />
        <Total label="Given up" value={count(totals.givenUp)} />
      </div>
      <Table
        caption="Per day, newest first"
        className="days"
        head={FEDIVERSE_HEAD}
        rows={days.map((day) => ({ key: day.day, cells: fediverseCells(day) }))}
      />
    </>
  );
}

function WebVitals({ vitals }: { vitals: Report["vitals"] }) {
  if ("unavailable" in vitals) return <p className="none">Not available: {vitals.unavailable}</p>;
  const since = vitals.since ? new Date(vitals.since).toISOString().slice(0, 16).replace("T", " ") : undefined;
  return (
    <>
      <p className="muted">
        What readers&apos; browsers measured, as this process received it
        {since ? ` since it started (${since} UTC)` : ""}: p75, the value three pages in four did better than, estimated
        from the histograms&apos; buckets as Prometheus does. Other origins of the site measure their own; Prometheus
        (docs/grafana) has them all, over any period.
      </p>
      {vitals.templates.length === 0 ? (
        <p className="none">No page measured yet.</p>
      ) : (
        <div className="cards">
          {vitals.templates.map((template) => (
            <Table
              key={template.route}
              caption={
                <>
                  <b>{pageName(template.route)}</b> ({template.route}), {count(template.pages)} pages
                </>
              }
              head={["Metric", "p75", "Rating"]}
              rows={template.metrics.map((figure) => ({
                key: figure.metric,
                cells: [
                  <>
                    {figure.metric} <small>({count(figure.pages)})</small>
                    {figure.p75 !== undefined && <VitalStrip metric={figure.metric} value={figure.p75} />}
                  </>,
                  vital(figure.metric, figure.p75),
                  <span
                    key="rating"
                    className={`rating ${figure.rating === "good" ? "good" : figure.rating === "poor" ? "poor" : figure.rating ? "ni" : "none"}`}
                  >
                    {figure.rating ?? NO_DATA}
                  </span>,
                ],
              }))}
            />
          ))}
        </div>
      )}
    </>
  );
}

/** Views and visitors per day: a chart for phones, one for wider screens, and the figures in a table. */
function DailyCharts({ daily }: { daily: Figures["daily"] }) {
  return (
    <>
      <p className="legend">
        <span>
          <i className="views" />
          Views
        </span>
        <span>
          <i className="visitors" />
          Visitors
        </span>
      </p>
      <DailyChart daily={daily} width={360} className="narrow" />
      <DailyChart daily={daily} width={960} className="wide" />
      <details>
        <summary>Per day</summary>
        <Table
          head={["Day", "Views", "Visitors"]}
          rows={daily.map((entry) => ({
            key: entry.day,
            cells: [entry.day, count(entry.views), count(entry.visitors)],
          }))}
        />
      </details>
    </>
  );
}

/** Pure: the report as a page. */
export function reportPage(report: Report): string {
  const { figures } = report;
  const { daily } = figures;
  return page(
    `Report: ${report.site}`,
    <>
      <header>
        <h1>Report: {report.site}</h1>
        <p className="muted">{periodName(figures.period)}</p>
        <Choice site={report.site} sites={report.sites} days={figures.period.days} />
      </header>
      <main>
        <section aria-labelledby="readers">
          <h2 id="readers">Readers</h2>
          <div className="totals">
            <Total label="Views" value={count(figures.views)} />
            <Total label="Visitors" value={count(figures.visitors)} note="distinct per day, added up" />
            <Total label="Articles viewed" value={count(figures.articles.viewed)} />
            <Total label="Completion" value={percent(figures.articles.completion)} note="article ends per view" />
            <Total label="Engaged per view" value={duration(figures.articles.engagedSeconds)} note="articles" />
          </div>
          {figures.views === 0 ? <p className="none">No view in this period.</p> : <DailyCharts daily={daily} />}
        </section>
        <section aria-labelledby="articles">
          <h2 id="articles">Top articles</h2>
          <Articles articles={figures.articles} />
          {figures.pages.length > 0 && (
            <Table
              caption="Other pages, by kind"
              head={["Pages", "Views"]}
              rows={figures.pages.map((entry) => ({
                key: entry.page,
                cells: [pageName(entry.page), count(entry.views)],
              }))}
            />
          )}
        </section>
        <section aria-labelledby="sources">
          <h2 id="sources">Sources</h2>
          <p className="muted">
            Counted once per visitor and day, on their first view; a referrer of the site itself is none.
          </p>
          <div className="columns">
            {SOURCE_KINDS.map((kind) => (
              <RankedTable
                key={kind}
                caption={SOURCE_NAMES[kind]}
                keyName={kind === "referrer" ? "Host" : "Value"}
                unit="Visitors"
                ranked={figures.sources[kind].top}
                total={figures.sources[kind].visitors}
              />
            ))}
          </div>
        </section>
        <section aria-labelledby="donations">
          <h2 id="donations">Donation pop-up</h2>
          <Funnel figures={figures} />
        </section>
        <section aria-labelledby="clicks">
          <h2 id="clicks">Links to other sites</h2>
          <div className="columns">
            <RankedTable
              caption="Outbound links"
              keyName="Host"
              unit="Clicks"
              ranked={figures.outbound.top}
              total={figures.outbound.total}
            />
            <RankedTable
              caption="Embeds"
              keyName="Host"
              unit="Clicks"
              ranked={figures.embeds.top}
              total={figures.embeds.total}
            />
          </div>
        </section>
        <section aria-labelledby="fediverse">
          <h2 id="fediverse">Followers on the social web</h2>
          <Fediverse fediverse={figures.fediverse} />
        </section>
        <section aria-labelledby="vitals">
          <h2 id="vitals">Web Vitals, p75 per template</h2>
          <WebVitals vitals={report.vitals} />
        </section>
      </main>
      <footer>
        <p>
          Days are UTC. Visitors are told apart within a day only (a salted hash, forgotten after two days): a reader
          who comes on three days counts three times. Each process writes its counts every 5 seconds; the last seconds
          may not be here yet.
        </p>
        <p>
          Read from{" "}
          {report.stores.length === 0 ? "no store: nothing was counted for this site yet" : report.stores.join(", ")}
          {report.unread > 0 ? `, and ${report.unread} more not read (at most ${report.stores.length})` : ""}. Made{" "}
          {report.made.toISOString()}.
        </p>
      </footer>
    </>,
  );
}

/** Pure: a page that says what was wrong with the request, with the way back. */
export function problemPage(title: string, problem: string, sites: string[] = []): string {
  return page(
    title,
    <main>
      <h1>{title}</h1>
      <p>{problem}</p>
      <Choice site={sites[0]} sites={sites} days={DEFAULT_DAYS} />
    </main>,
  );
}
