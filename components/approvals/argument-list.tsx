import { cellText } from "@/lib/run-view/result-tables";

/** Long values are cut here; the full text is one click away. */
const SHORT = 160;

/** Arguments as a compact key/value list (secrets arrive masked from the server). */
export function ArgumentList({ values, label = "Arguments" }: { values: Record<string, unknown>; label?: string }) {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return <p className="text-xs text-muted">No arguments.</p>;
  return (
    <dl aria-label={label} className="grid grid-cols-[minmax(5rem,max-content)_1fr] gap-x-3 gap-y-1 text-xs">
      {entries.map(([key, value]) => {
        const text = cellText(value);
        return (
          <div key={key} className="contents">
            <dt className="font-mono text-muted">{key}</dt>
            <dd className="min-w-0 font-mono text-foreground">
              {text.length > SHORT || text.includes("\n") ? (
                <details>
                  <summary className="cursor-pointer truncate">{text.slice(0, SHORT).split("\n")[0]}…</summary>
                  <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-all rounded border border-line bg-surface-sunken p-2">{text}</pre>
                </details>
              ) : (
                <span className="break-all">{text === "" ? <span className="text-muted">(empty)</span> : text}</span>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
