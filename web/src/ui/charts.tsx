import { scaleBand, scaleLinear } from "d3-scale";
import type { RefObject } from "preact";
import { useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import { formatInteger } from "./format";

// Hand-drawn SVG with d3-scale for the arithmetic (bands, nice ranges, ticks): Preact renders every element,
// so the charts need no inline styles (CSP), carry their own accessible names and cost a few KB.

export interface DayBar {
  day: string;
  unitsIn: number;
  unitsOut: number;
  movements: number;
}

/** Every UTC day from `from` to `to` (YYYY-MM-DD), oldest first, with zeros where the report has no entry. */
export function fillDays(byDay: DayBar[], from: string, to: string): DayBar[] {
  const known = new Map(byDay.map((d) => [d.day, d]));
  const days: DayBar[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.push(known.get(day) ?? { day, unitsIn: 0, unitsOut: 0, movements: 0 });
  }
  return days;
}

/**
 * The element's width in CSS pixels, followed as it changes: the charts draw at their real size, so their text
 * stays legible from a phone to a wide screen instead of scaling with the drawing.
 */
function useWidth(ref: RefObject<HTMLElement | null>, fallback = 640) {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(240, Math.floor(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Units in above the axis, units out below it, one column per day. */
export function DailyMovementsChart({ title, days }: { title: string; days: DayBar[] }) {
  const ref = useRef<HTMLElement>(null);
  const width = useWidth(ref);
  const titleId = useId();
  const descId = useId();
  const height = 240;
  const margin = { top: 12, right: 8, bottom: 28, left: 44 };
  const maxIn = Math.max(1, ...days.map((d) => d.unitsIn));
  const maxOut = Math.max(1, ...days.map((d) => d.unitsOut));
  const y = scaleLinear()
    .domain([-maxOut, maxIn])
    .nice(6)
    .range([height - margin.bottom, margin.top]);
  const x = scaleBand<string>()
    .domain(days.map((d) => d.day))
    .range([margin.left, width - margin.right])
    .paddingInner(0.2);
  const zero = y(0);
  const labelEvery = width < 420 ? 7 : 5;
  const totalIn = days.reduce((sum, d) => sum + d.unitsIn, 0);
  const totalOut = days.reduce((sum, d) => sum + d.unitsOut, 0);
  const moves = days.reduce((sum, d) => sum + d.movements, 0);
  return (
    <figure class="chart" ref={ref}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${titleId} ${descId}`}>
        <title id={titleId}>{title}</title>
        <desc id={descId}>
          {`${formatInteger(moves)} movements: ${formatInteger(totalIn)} units in, ${formatInteger(totalOut)} units out.`}
        </desc>
        {y.ticks(6).map((tick) => (
          <g key={tick} class="tick">
            <line x1={margin.left} x2={width - margin.right} y1={y(tick)} y2={y(tick)} />
            <text x={margin.left - 6} y={y(tick)} dy="0.32em" text-anchor="end">
              {formatInteger(Math.abs(tick))}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const left = x(d.day) ?? 0;
          return (
            <g key={d.day} class="day">
              <title>{`${d.day}: ${d.unitsIn} in, ${d.unitsOut} out (${d.movements} movements)`}</title>
              <rect
                class="bar-in"
                x={left}
                width={x.bandwidth()}
                y={y(d.unitsIn)}
                height={zero - y(d.unitsIn)}
              />
              <rect class="bar-out" x={left} width={x.bandwidth()} y={zero} height={y(-d.unitsOut) - zero} />
              {i % labelEvery === 0 && (
                <text class="axis-label" x={left + x.bandwidth() / 2} y={height - 8} text-anchor="middle">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
        <line class="axis" x1={margin.left} x2={width - margin.right} y1={zero} y2={zero} />
      </svg>
      <figcaption>
        <span class="legend legend-in">Units in</span> <span class="legend legend-out">Units out</span>
      </figcaption>
      <details>
        <summary>Show the numbers</summary>
        <table>
          <caption class="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Movements</th>
              <th scope="col">Units in</th>
              <th scope="col">Units out</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                <td>{d.movements}</td>
                <td>{d.unitsIn}</td>
                <td>{d.unitsOut}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

export interface CountBar {
  label: string;
  value: number;
}

/** Horizontal bars, one per label. */
export function CountChart({ title, bars }: { title: string; bars: CountBar[] }) {
  const ref = useRef<HTMLElement>(null);
  const width = useWidth(ref);
  const titleId = useId();
  const row = 28;
  const margin = { top: 8, right: 40, bottom: 8, left: 150 };
  const height = margin.top + margin.bottom + row * Math.max(bars.length, 1);
  const x = scaleLinear()
    .domain([0, Math.max(1, ...bars.map((b) => b.value))])
    .nice()
    .range([margin.left, width - margin.right]);
  const y = scaleBand<string>()
    .domain(bars.map((b) => b.label))
    .range([margin.top, height - margin.bottom])
    .paddingInner(0.25);
  return (
    <figure class="chart" ref={ref}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId}>
        <title id={titleId}>
          {`${title}: ${bars.map((b) => `${b.label} ${b.value}`).join(", ") || "none"}`}
        </title>
        {bars.map((b) => {
          const top = y(b.label) ?? 0;
          const middle = top + y.bandwidth() / 2;
          return (
            <g key={b.label} class="count">
              <text x={margin.left - 8} y={middle} dy="0.32em" text-anchor="end">
                {b.label}
              </text>
              <rect
                class="bar-count"
                x={margin.left}
                y={top}
                height={y.bandwidth()}
                width={x(b.value) - margin.left}
              />
              <text x={x(b.value) + 6} y={middle} dy="0.32em">
                {formatInteger(b.value)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
