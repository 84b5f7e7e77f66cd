/** A row's input, expected output or output, shown as text: text as it is, anything else as JSON, long ones cut (the run has all). */
export function ShownValue({ value, empty = "–" }: { value: unknown; empty?: string }) {
  if (value === undefined || value === null) return <span className="text-muted">{empty}</span>;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const shown = text.length > 300 ? `${text.slice(0, 297)}…` : text;
  return <span className="font-mono text-xs wrap-anywhere whitespace-pre-wrap">{shown}</span>;
}
