import { Fragment } from "react";

/**
 * Tool descriptions are written for models and people alike and quote field
 * names in backticks (`table`); show those as code rather than raw backticks.
 */
export function DescriptionText({ text }: { text: string }) {
  const parts = text.split(/`([^`\n]+)`/);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <code key={index} className="rounded bg-surface-sunken px-1 py-0.5 font-mono text-[0.8125em] text-foreground">
            {part}
          </code>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
