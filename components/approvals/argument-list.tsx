import { argumentMarking } from "@/lib/run-view/hidden-characters";
import { cellText } from "@/lib/run-view/result-tables";
import { toVisibleString } from "@/lib/tools/contracts";
import { VisibleText } from "@/components/ui/visible-text";

/** Values longer than this (once hidden characters are marked) fold behind their first part; the full text is one click away. */
const SHORT = 160;

/**
 * Arguments as a compact key/value list (secrets arrive masked from the
 * server). Hidden characters are marked before anything is measured or
 * cut, so a fold never hides them: a run of 2,000 spaces is one short mark.
 */
export function ArgumentList({ values, label = "Arguments" }: { values: Record<string, unknown>; label?: string }) {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return <p className="text-xs text-muted">No arguments.</p>;
  return (
    <dl aria-label={label} className="grid grid-cols-[minmax(5rem,max-content)_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
      {entries.map(([key, value]) => {
        const text = cellText(value);
        const options = argumentMarking(text);
        const visible = toVisibleString(text, options);
        return (
          <div key={key} className="contents">
            <dt className="break-all font-mono text-muted">
              <VisibleText text={key} />
            </dt>
            <dd className="min-w-0 font-mono text-foreground [direction:ltr] [unicode-bidi:bidi-override]">
              {visible.length > SHORT || text.includes("\n") ? (
                <details>
                  <summary className="cursor-pointer break-all py-1">
                    <VisibleText text={firstPart(text)} options={options} />…{" "}
                    <span className="font-sans text-muted">
                      ({text.length} characters{visible !== text ? ", holding hidden characters" : ""}, show all)
                    </span>
                  </summary>
                  <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded border border-line bg-surface-sunken p-2 [overflow-wrap:anywhere]">
                    <VisibleText text={text} options={options} />
                  </pre>
                </details>
              ) : (
                <span className="break-all">{text === "" ? <span className="text-muted">(empty)</span> : <VisibleText text={text} options={options} />}</span>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** The start of a long value: its first line, at most SHORT characters of it (a long blank run counts as one mark). */
function firstPart(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return [...line].slice(0, SHORT).join("");
}
