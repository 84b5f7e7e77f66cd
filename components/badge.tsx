import type { ReactNode } from "react";

const TONES = {
  neutral: "border-line bg-surface-sunken text-muted",
  accent: "border-transparent bg-accent-soft text-accent",
  safe: "border-transparent bg-safe-soft text-safe",
  caution: "border-transparent bg-caution-soft text-caution",
} as const;

interface BadgeProps {
  tone?: keyof typeof TONES;
  /** Longer explanation, shown on hover. */
  title?: string;
  mono?: boolean;
  children: ReactNode;
}

export function Badge({ tone = "neutral", title, mono = false, children }: BadgeProps) {
  return (
    <span
      title={title}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium leading-5 ${
        mono ? "font-mono text-[0.6875rem]" : ""
      } ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

/** Whether a tool (or one of its operations) only reads or may change things. */
export function AccessBadge({ readOnly }: { readOnly: boolean }) {
  return readOnly ? (
    <Badge tone="safe" title="Reads only: runs without asking for permission.">
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      read-only
    </Badge>
  ) : (
    <Badge tone="caution" title="May change files, data or the outside world: goes through the permission gate.">
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      changes things
    </Badge>
  );
}
