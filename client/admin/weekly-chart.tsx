/**
 * A chart of weekly counts drawn as inline SVG (no chart library): bars for one series, lines for several. Each
 * chart has a title and a short text summary for screen readers, and its numbers in a table one click away.
 */
import { useId } from 'react';
import { barsFor, linePoints, niceMax, pointsFor, slotCentre, type PlotArea } from './chart-scale.ts';
import { formatWeek } from './format.ts';

export interface ChartSeries {
  label: string;
  values: readonly number[];
  /** A CSS colour token of the gallery's palette, e.g. 'var(--accent)'. */
  colour: string;
}

interface WeeklyChartProps {
  title: string;
  kind: 'bar' | 'line';
  /** The start of each week (ms), oldest first; every series has one value a week. */
  weeks: readonly number[];
  series: readonly ChartSeries[];
  testId?: string;
}

const WIDTH = 480;
const HEIGHT = 200;
const AREA: PlotArea = { left: 36, top: 12, width: WIDTH - 48, height: HEIGHT - 44 };

/** Which weeks get a label under the axis: the current week and every few back from it, so labels never overlap. */
function labelledWeeks(count: number): Set<number> {
  const every = Math.max(1, Math.ceil(count / 5));
  const labelled = new Set<number>();
  for (let index = count - 1; index >= 0; index -= every) labelled.add(index);
  return labelled;
}

export function WeeklyChart({ title, kind, weeks, series, testId }: WeeklyChartProps) {
  const titleId = useId();
  const summaryId = useId();
  const top = niceMax(series.flatMap((one) => one.values));
  const summary = series
    .map((one) => `${one.label}: ${one.values.reduce((sum, value) => sum + value, 0)} over ${weeks.length} weeks`)
    .join('; ');
  const baseline = AREA.top + AREA.height;
  const labelled = labelledWeeks(weeks.length);

  return (
    <figure className="admin-chart" data-testid={testId}>
      <figcaption>
        <h3 id={titleId} className="admin-chart__title">
          {title}
        </h3>
        {series.length > 1 && (
          <ul className="admin-chart__legend">
            {series.map((one) => (
              <li key={one.label}>
                <span className="admin-chart__swatch" style={{ background: one.colour }} aria-hidden="true" />
                {one.label}
              </li>
            ))}
          </ul>
        )}
      </figcaption>
      <svg
        className="admin-chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        aria-describedby={summaryId}
      >
        {[0, 0.5, 1].map((fraction) => {
          const y = baseline - fraction * AREA.height;
          const value = fraction * top;
          return (
            <g key={fraction} className="admin-chart__grid">
              <line x1={AREA.left} x2={AREA.left + AREA.width} y1={y} y2={y} />
              {Number.isInteger(value) && (
                <text x={AREA.left - 6} y={y + 4} textAnchor="end">
                  {value}
                </text>
              )}
            </g>
          );
        })}
        {kind === 'bar'
          ? series
              .slice(0, 1)
              .map((one) =>
                barsFor(one.values, AREA, top).map((bar, index) => (
                  <rect
                    key={index}
                    x={bar.x}
                    y={bar.y}
                    width={bar.width}
                    height={bar.height}
                    rx={2}
                    fill={one.colour}
                    data-value={one.values[index]}
                  />
                )),
              )
          : series.map((one, position) => (
              <g key={one.label}>
                {/* Later lines are dashed, so one lying on another (both at zero, say) still shows. */}
                <polyline
                  points={linePoints(one.values, AREA, top)}
                  fill="none"
                  stroke={one.colour}
                  strokeWidth={2.5}
                  strokeLinejoin="round"
                  strokeDasharray={position > 0 ? '6 4' : undefined}
                />
                {pointsFor(one.values, AREA, top).map((point, index) => (
                  <circle
                    key={index}
                    cx={point.x}
                    cy={point.y}
                    r={2.5}
                    fill={one.colour}
                    data-value={one.values[index]}
                  />
                ))}
              </g>
            ))}
        {weeks.map((week, index) =>
          labelled.has(index) ? (
            <text
              key={week}
              className="admin-chart__week"
              x={slotCentre(index, weeks.length, AREA)}
              y={HEIGHT - 10}
              textAnchor="middle"
            >
              {formatWeek(week)}
            </text>
          ) : null,
        )}
      </svg>
      <p id={summaryId} className="visually-hidden">
        {summary}
      </p>
      <details className="admin-chart__numbers">
        <summary>The numbers</summary>
        <table className="admin-table admin-table--compact">
          <thead>
            <tr>
              <th scope="col">Week of</th>
              {series.map((one) => (
                <th scope="col" key={one.label}>
                  {one.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week, index) => (
              <tr key={week}>
                <th scope="row">{formatWeek(week)}</th>
                {series.map((one) => (
                  <td key={one.label}>{one.values[index] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
