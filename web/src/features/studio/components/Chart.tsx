/** The plot's own units; the SVG stretches to the box, the labels are HTML placed in percent (never squashed). */
const W = 1000;
const H = 200;

/** An SVG path through the points, scaled into the plot. */
function path(points: Array<[number, number]>, x: (v: number) => number, y: (v: number) => number): string {
  return points.map(([px, py], index) => `${index === 0 ? 'M' : 'L'}${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ');
}

export interface Series {
  name: string;
  className: string;
  points: Array<[number, number]>;
}

/**
 * Lines over a linear or logarithmic x axis, as inline SVG (the report's curves): `label` is its accessible name,
 * `describedBy` the id of an element that says in words what it shows.
 */
export function Chart({
  label,
  series,
  xLog,
  xTicks,
  yUnit,
  describedBy,
  xDomain,
}: {
  label: string;
  series: Series[];
  xLog: boolean;
  xTicks: Array<[number, string]>;
  yUnit: string;
  describedBy?: string;
  /** The x axis's ends when they are not the points' (bands without a level still take their place). */
  xDomain?: [number, number];
}) {
  const all = series.flatMap((s) => s.points);
  if (all.length < 2) return null;
  const xs = [...all.map(([px]) => px), ...(xDomain ?? [])].map((px) => (xLog ? Math.log10(px) : px));
  const ys = all.map(([, py]) => py);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const y0 = Math.floor(Math.min(...ys) / 6) * 6;
  // 6 dB steps; a flat set still gets one step of height.
  const y1 = Math.max(Math.ceil(Math.max(...ys) / 6) * 6, y0 + 6);
  const share = (v: number) => (((xLog ? Math.log10(v) : v) - x0) / (x1 - x0 || 1)) * 100;
  const height = (v: number) => ((y1 - v) / (y1 - y0)) * 100;
  const x = (v: number) => (share(v) / 100) * W;
  const y = (v: number) => (height(v) / 100) * H;
  const yTicks = [y0, (y0 + y1) / 2, y1];
  return (
    <figure className="chart">
      <div className="chart__area">
        <div className="chart__y" aria-hidden="true">
          {yTicks.map((tick) => (
            <span key={tick} style={{ top: `${height(tick)}%` }}>
              {Math.round(tick) || 0}
            </span>
          ))}
        </div>
        <div className="chart__plot">
          <svg
            viewBox={`0 0 ${W} ${H}`}
            role="img"
            aria-label={label}
            aria-describedby={describedBy}
            preserveAspectRatio="none"
          >
            {yTicks.map((tick) => (
              <line key={tick} className="chart__grid" x1={0} x2={W} y1={y(tick)} y2={y(tick)} />
            ))}
            {series.map((s) => (
              <path key={s.name} className={`chart__line ${s.className}`} d={path(s.points, x, y)} />
            ))}
          </svg>
          <div className="chart__x" aria-hidden="true">
            {xTicks
              .filter(([value]) => share(value) > 3 && share(value) < 97)
              .map(([value, text]) => (
                <span key={value} style={{ left: `${share(value)}%` }}>
                  {text}
                </span>
              ))}
          </div>
        </div>
      </div>
      <figcaption>
        {label} ({yUnit}){' '}
        {series.map((s) => (
          <span key={s.name} className={`chart__key ${s.className}`}>
            {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
