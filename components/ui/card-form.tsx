import type { FormEvent, ReactNode } from "react";

interface CardFormProps {
  /** The heading's id: the form is named by it. */
  titleId: string;
  title: string;
  /** What the form does, under the heading. */
  intro: ReactNode;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The space between its parts. */
  spacing?: "space-y-4" | "space-y-5";
  children: ReactNode;
}

/**
 * A form on a card of its own, named by its heading, with a line saying what it does: the dataset and evaluation
 * forms share it rather than each spelling out the same card. The browser's own validation is off (the fields say
 * what is wrong in the studio's words).
 */
export function CardForm({ titleId, title, intro, onSubmit, spacing = "space-y-4", children }: CardFormProps) {
  return (
    <form onSubmit={onSubmit} noValidate className={`${spacing} rounded-xl border border-line bg-surface p-5 shadow-card`} aria-labelledby={titleId}>
      <div>
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        <p className="mt-1 text-sm text-muted">{intro}</p>
      </div>
      {children}
    </form>
  );
}
