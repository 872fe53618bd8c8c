import { scaleBand, scaleLinear } from "d3-scale";
import { line } from "d3-shape";
import type { WebVital } from "~/metrics/record.server";
import { THRESHOLDS } from "~/beacon/thresholds";
import { count } from "./format";

/**
 * The report's charts, drawn on the server as SVG (no script): d3's scales place the marks, the page's
 * style sheet colours them by class. Each chart has a title for screen readers; the figures it draws
 * are in a table beside it.
 */

/**
 * Views as bars and visitors as a line, per day of the period, `width` units wide: the page draws one for
 * phones and one for wider screens, so that its text stays readable at either size.
 */
export function DailyChart({
  daily,
  width,
  className,
}: {
  daily: { day: string; views: number; visitors: number }[];
  width: number;
  className: string;
}) {
  const height = 200;
  const margin = { top: 10, right: 16, bottom: 22, left: 40 };
  const x = scaleBand(
    daily.map((entry) => entry.day),
    [margin.left, width - margin.right],
  ).padding(daily.length > 40 ? 0.1 : 0.25);
  const y = scaleLinear(
    [0, Math.max(1, ...daily.map((entry) => Math.max(entry.views, entry.visitors)))],
    [height - margin.bottom, margin.top],
  ).nice(4);
  const center = (day: string) => (x(day) ?? 0) + x.bandwidth() / 2;
  const visitors = line<{ day: string; visitors: number }>(
    (entry) => center(entry.day),
    (entry) => y(entry.visitors),
  )(daily);
  // A date every 70 units or so under the axis, the last day's always.
  const every = Math.max(1, Math.ceil(daily.length / Math.floor(width / 70)));
  const labelled = daily.filter((_, index) => (daily.length - 1 - index) % every === 0);
  return (
    <svg
      className={`chart ${className}`}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label="Views and visitors per day"
    >
      {y
        .ticks(4)
        .filter(Number.isInteger)
        .map((tick) => (
          <g key={tick}>
            <line className="grid" x1={margin.left} x2={width - margin.right} y1={y(tick)} y2={y(tick)} />
            <text x={margin.left - 4} y={y(tick)} dy="0.32em" textAnchor="end">
              {count(tick)}
            </text>
          </g>
        ))}
      {daily.map((entry) => (
        <rect
          key={entry.day}
          className="views"
          x={x(entry.day)}
          y={y(entry.views)}
          width={x.bandwidth()}
          height={y(0) - y(entry.views)}
        />
      ))}
      {visitors && <path className="visitors" d={visitors} />}
      {labelled.map((entry) => (
        <text key={entry.day} x={center(entry.day)} y={height - 6} textAnchor="middle">
          {entry.day.slice(5)}
        </text>
      ))}
    </svg>
  );
}

/** A share of the largest value as a thin bar, for a table's cell. */
export function Bar({ value, max, className = "views" }: { value: number; max: number; className?: string }) {
  const width = max > 0 ? Math.min(100, (value / max) * 100) : 0;
  return (
    <svg className="bar" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
      <rect className="track" width="100" height="6" />
      <rect className={className} width={width} height="6" />
    </svg>
  );
}

/** Where a p75 falls against the metric's good and poor thresholds. */
export function VitalStrip({ metric, value }: { metric: WebVital; value: number }) {
  const { good, poor } = THRESHOLDS[metric];
  const x = scaleLinear([0, Math.max(poor * 1.5, value)], [0, 100]);
  return (
    <svg className="strip" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">
      <rect className="good" width={x(good)} height="8" />
      <rect className="ni" x={x(good)} width={x(poor) - x(good)} height="8" />
      <rect className="poor" x={x(poor)} width={100 - x(poor)} height="8" />
      <rect className="mark" x={Math.min(99, x(value))} width="1.5" height="8" />
    </svg>
  );
}
