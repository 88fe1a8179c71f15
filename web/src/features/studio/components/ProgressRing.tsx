/** The circular percentage of the upload (spec §2): an SVG ring with the number in the middle. */
export function ProgressRing({ percent, label }: { percent: number; label: string }) {
  const radius = 52;
  const circumference = 2 * Math.PI * radius;
  const clamped = Math.min(100, Math.max(0, Math.round(percent)));
  return (
    <div
      className="ring"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
    >
      <svg viewBox="0 0 120 120" width="120" height="120" aria-hidden="true">
        <circle className="ring__track" cx="60" cy="60" r={radius} />
        <circle
          className="ring__value"
          cx="60"
          cy="60"
          r={radius}
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - clamped / 100)}
          transform="rotate(-90 60 60)"
        />
      </svg>
      <span className="ring__label">{clamped}%</span>
      <span className="ring__title">{label}</span>
    </div>
  );
}
