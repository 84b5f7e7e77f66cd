import { Fragment, type ReactElement, type ReactNode } from "react";

/** One mark of an icon: a path, given by its outline (`d`), or a shape drawn by one of the helpers below. */
type Mark = string | ReactElement;

const circle = (cx: number, cy: number, r: number) => <circle cx={cx} cy={cy} r={r} />;
const rect = (x: number, y: number, width: number, height: number, rx: number) => <rect x={x} y={y} width={width} height={height} rx={rx} />;
const ellipse = (cx: number, cy: number, rx: number, ry: number) => <ellipse cx={cx} cy={cy} rx={rx} ry={ry} />;

/** A page with its corner folded, for the file icons; `marks` are drawn on it in the fold's path (lines of text, a plus). */
const page = (marks = ""): Mark[] => ["M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8Z", `M14 3v5h5${marks}`];

// Drawn on a 24×24 grid with a 2px round stroke, in the spirit of lucide, so
// the names tools declare ("list-checks", "database") can be looked up here
// without an icon package. Each is its marks, drawn in order by drawMarks().
const ICONS: Record<string, readonly Mark[]> = {
  folder: ["M3 6.5A1.5 1.5 0 0 1 4.5 5H9l2 2h8.5A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5Z"],
  file: page(),
  "file-text": page("M9 13h6M9 17h6M9 9h1"),
  "file-pen": ["M12 21H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h7l5 5v3", "M14 3v5h5", "m15 21 .5-2.5 4.2-4.2a1.4 1.4 0 0 1 2 2l-4.2 4.2Z"],
  "file-diff": page("M12 10v6M9 13h6M9 18h6"),
  "file-plus": page("M12 11v6M9 14h6"),
  "folder-open": ["M5 19 7.6 11.6A1.5 1.5 0 0 1 9 10.5h11.5a1 1 0 0 1 1 1.3l-2.2 6.1a1.5 1.5 0 0 1-1.4 1.1H4.5A1.5 1.5 0 0 1 3 17.5v-11A1.5 1.5 0 0 1 4.5 5H9l2 2h6a1.5 1.5 0 0 1 1.5 1.5v2"],
  "folder-tree": [
    "M3 3v13a2 2 0 0 0 2 2h4M3 7h6",
    "M12 4.5a1 1 0 0 1 1-1h2.5l1.5 1.5h3a1 1 0 0 1 1 1V9a1 1 0 0 1-1 1h-7a1 1 0 0 1-1-1Z",
    "M12 15.5a1 1 0 0 1 1-1h2.5l1.5 1.5h3a1 1 0 0 1 1 1V20a1 1 0 0 1-1 1h-7a1 1 0 0 1-1-1Z",
  ],
  download: ["M12 3v12M7 10l5 5 5-5M4 21h16"],
  braces: ["M8 3H7a2 2 0 0 0-2 2v5a2 2 0 0 1-2 2 2 2 0 0 1 2 2v5a2 2 0 0 0 2 2h1M16 3h1a2 2 0 0 1 2 2v5a2 2 0 0 0 2 2 2 2 0 0 0-2 2v5a2 2 0 0 1-2 2h-1"],
  plug: ["M9 2v6M15 2v6M6 8h12v3a6 6 0 0 1-12 0ZM12 17v5"],
  pencil: ["M4 20h4L19.3 8.7a2.8 2.8 0 0 0-4-4L4 16Z M13.5 6.5l4 4"],
  search: [circle(11, 11, 7), "m20 20-3.5-3.5"],
  table: [rect(3, 4, 18, 16, 2), "M3 10h18M3 15h18M9 10v10"],
  database: [ellipse(12, 5, 8, 3), "M4 5v14c0 1.7 3.6 3 8 3s8-1.3 8-3V5", "M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3"],
  terminal: [rect(3, 4, 18, 16, 2), "m7 9 3 3-3 3M13 15h4"],
  globe: [circle(12, 12, 9), "M3 12h18M12 3a14 14 0 0 1 0 18 14 14 0 0 1 0-18"],
  bot: [rect(4, 8, 16, 12, 3), "M12 8V4M9 13v2M15 13v2M2 14v2M22 14v2", circle(12, 3.5, 1)],
  "message-circle-question": ["M21 12a9 9 0 0 1-13.4 7.9L3 21l1.1-4.6A9 9 0 1 1 21 12Z", "M9.6 9.5a2.5 2.5 0 1 1 3.4 2.3c-.6.3-1 .8-1 1.5v.2M12 17h.01"],
  "list-checks": ["m3 6 1.5 1.5L7 5M3 13l1.5 1.5L7 12M3 19.5 4.5 21 7 18.5M11 6h10M11 13h10M11 20h10"],
  flag: ["M5 21V4M5 4h12l-2.5 4.5L17 13H5"],
  // lucide's "clock": a face with two hands.
  clock: [circle(12, 12, 10), "M12 6v6l4 2"],
  // lucide's "webhook": three joined nodes.
  webhook: [
    "M18 16.98h-5.99c-1.1 0-1.95.94-2.48 1.9A4 4 0 0 1 2 17c.01-.7.2-1.4.57-2",
    "m6 17 3.13-5.78c.53-.97.1-2.18-.5-3.1a4 4 0 1 1 6.89-4.06",
    "m12 6 3.13 5.73C15.66 12.7 16.9 13 18 13a4 4 0 0 1 0 8",
  ],
  mail: [rect(3, 5, 18, 14, 2), "m3 7 9 6 9-6"],
  "chart-column": ["M3 3v18h18M8 17v-5M13 17V8M18 17v-8"],
  link: ["M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7", "M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7"],
  "log-in": ["M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4M10 17l5-5-5-5M15 12H3"],
  // A loop: two arrows chasing each other round.
  repeat: ["m17 2 4 4-4 4", "M3 11v-1a4 4 0 0 1 4-4h14", "m7 22-4-4 4-4", "M21 13v1a4 4 0 0 1-4 4H3"],
  // A workflow inside another: a card holding two joined nodes.
  workflow: [rect(3, 4, 18, 16, 2), circle(8.5, 12, 2), circle(15.5, 12, 2), "M10.5 12h3"],
  "git-branch": [circle(6, 6, 2.5), circle(6, 18, 2.5), circle(18, 8, 2.5), "M6 8.5v7M18 10.5a6 6 0 0 1-6 6H8.5"],
  wrench: ["M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.8-3.8a6 6 0 0 1-7.9 7.9l-6.9 6.9a2.1 2.1 0 0 1-3-3l6.9-6.9a6 6 0 0 1 7.9-7.9Z"],
  // The Model Context Protocol's mark: two interlocking strokes.
  mcp: ["M4 11.5 11.6 4a2.7 2.7 0 0 1 3.8 3.8L9.7 13.5M9.7 13.5l5.7-5.7a2.7 2.7 0 0 1 3.8 3.8l-6.8 6.8a.9.9 0 0 0 0 1.3l1.4 1.3M15.4 6 9 12.4a2.7 2.7 0 0 0 3.8 3.8l5.8-5.8"],
  blocks: [rect(3, 3, 7.5, 7.5, 1.5), rect(13.5, 3, 7.5, 7.5, 1.5), rect(3, 13.5, 7.5, 7.5, 1.5), rect(13.5, 13.5, 7.5, 7.5, 1.5)],
};

/** An icon's marks as SVG children: an outline becomes a path, a shape stands as it is. */
function drawMarks(marks: readonly Mark[]): ReactNode {
  return marks.map((mark, index) => (typeof mark === "string" ? <path key={index} d={mark} /> : <Fragment key={index}>{mark}</Fragment>));
}

/** The icon a domain falls back to when a tool names none, or one this file does not draw. */
const DOMAIN_ICONS: Record<string, string> = {
  filesystem: "folder",
  data: "table",
  database: "database",
  system: "terminal",
  web: "globe",
  agent: "bot",
  custom: "blocks",
};

const FALLBACK_ICON = "blocks";

/** The name of the icon that will be drawn: the tool's own, else its domain's, else a generic one. */
export function resolveIconName(icon: string | null | undefined, domain?: string): string {
  if (icon && icon in ICONS) return icon;
  if (domain?.startsWith("mcp:")) return "mcp";
  const domainIcon = domain ? DOMAIN_ICONS[domain] : undefined;
  return domainIcon ?? FALLBACK_ICON;
}

interface ToolIconProps {
  /** A lucide-style icon name, as tools declare it. */
  icon?: string | null;
  /** The tool's domain, used when `icon` is missing or unknown. */
  domain?: string;
  className?: string;
}

/** A decorative icon for a tool or a domain; screen readers skip it, the text beside it names the thing. */
export function ToolIcon({ icon, domain, className = "size-5" }: ToolIconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
      data-icon={resolveIconName(icon, domain)}
    >
      {drawMarks(ICONS[resolveIconName(icon, domain)] ?? [])}
    </svg>
  );
}

/** The product mark: a wave over three nodes, i.e. a workflow riding a signal. */
export function StudioLogo({ className = "size-6" }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" aria-hidden="true" focusable="false" className={className}>
      <rect width="24" height="24" rx="6" fill="var(--accent)" />
      <path
        d="M4 14.5c2.2 0 2.8-5 5.3-5s2.6 5 5.2 5 3-5 5.5-5"
        stroke="var(--accent-foreground)"
        strokeWidth={2}
        strokeLinecap="round"
        fill="none"
      />
    </svg>
  );
}
