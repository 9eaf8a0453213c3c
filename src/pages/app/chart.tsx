/**
 * The P&L's chart, drawn on the server as SVG: for each section, the current period beside
 * the prior one. The bars differ by fill and pattern, not by colour alone, each bar is
 * labelled with its amount, and the same numbers are in the table beside it (the chart is
 * an image with a title and a description for assistive technology).
 */
export interface ChartGroup {
  label: string;
  current: number;
  prior: number;
}

const WIDTH = 640;
const HEIGHT = 260;
const TOP = 24;
const BOTTOM = 44;
const BAR = 34;

function short(cents: number): string {
  const dollars = cents / 100;
  const size = Math.abs(dollars);
  const text = size >= 1_000_000 ? `${(size / 1_000_000).toFixed(1)}M` : size >= 10_000 ? `${Math.round(size / 1000)}k` : Math.round(size).toLocaleString("en-US");
  return `${dollars < 0 ? "\u2212" : ""}$${text}`;
}

export function PnlChart(props: { id: string; title: string; description: string; groups: ChartGroup[] }) {
  const largest = Math.max(1, ...props.groups.flatMap((g) => [Math.abs(g.current), Math.abs(g.prior)]));
  const hasNegative = props.groups.some((g) => g.current < 0 || g.prior < 0);
  const plot = HEIGHT - TOP - BOTTOM;
  // Zero sits at the bottom unless a number is below it; then in the middle.
  const zero = hasNegative ? TOP + plot / 2 : TOP + plot;
  const scale = (hasNegative ? plot / 2 : plot) / largest;
  const slot = WIDTH / props.groups.length;
  const bar = (x: number, cents: number, kind: "current" | "prior") => {
    const height = Math.max(1, Math.abs(cents) * scale);
    const y = cents >= 0 ? zero - height : zero;
    return (
      <g>
        <rect x={x} y={y} width={BAR} height={height} fill={kind === "current" ? "#174ea6" : `url(#${props.id}-hatch)`} stroke="#1d2330" stroke-width="1" />
        <text x={x + BAR / 2} y={cents >= 0 ? y - 4 : y + height + 12} text-anchor="middle" font-size="11" fill="#1d2330">
          {short(cents)}
        </text>
      </g>
    );
  };
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${props.id}-title ${props.id}-desc`} focusable="false">
      <title id={`${props.id}-title`}>{props.title}</title>
      <desc id={`${props.id}-desc`}>{props.description}</desc>
      <defs>
        <pattern id={`${props.id}-hatch`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="6" height="6" fill="#ffffff" />
          <line x1="0" y1="0" x2="0" y2="6" stroke="#4a5263" stroke-width="3" />
        </pattern>
      </defs>
      <line x1="0" y1={zero} x2={WIDTH} y2={zero} stroke="#1d2330" stroke-width="1" />
      {props.groups.map((g, i) => {
        const x = i * slot + (slot - 2 * BAR - 6) / 2;
        return (
          <g>
            {bar(x, g.current, "current")}
            {bar(x + BAR + 6, g.prior, "prior")}
            <text x={i * slot + slot / 2} y={HEIGHT - BOTTOM + 28} text-anchor="middle" font-size="12" fill="#1d2330">
              {g.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
