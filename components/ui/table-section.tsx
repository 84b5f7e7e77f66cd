import type { ReactNode } from "react";

/** A section of a page named by its heading, with its controls at the heading's right (under it on a narrow screen). */
export function TableSection({ titleId, title, controls, children }: { titleId: string; title: string; controls: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        {controls}
      </div>
      {children}
    </section>
  );
}
