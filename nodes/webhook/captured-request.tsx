"use client";

import { useId, useState } from "react";
import { CONTROL_CLASS } from "@/components/ui/field";
import type { WebhookTestCapture } from "@/lib/contracts/webhook-test";
import { SECRET_MASK } from "@/lib/tools/contracts";
import type { WebhookMapping } from "./definition";
import { sourceFor, type RequestPart } from "./request-mapping";

interface CapturedRequestProps {
  capture: WebhookTestCapture;
  /** The run inputs a value may fill (the run inputs node's fields). */
  inputNames: readonly string[];
  mapping: readonly WebhookMapping[];
  onMap: (entry: WebhookMapping) => void;
}

/**
 * A captured test delivery as trees (body, query, headers, method), each value
 * a button that maps it into the chosen run input: `{ input, from: "body.user.name" }`.
 * Masked values and places a mapping cannot name are shown, not offered.
 */
export function CapturedRequest({ capture, inputNames, mapping, onMap }: CapturedRequestProps) {
  const selectId = useId();
  const unmapped = inputNames.find((name) => !mapping.some((entry) => entry.input === name));
  const [input, setInput] = useState(unmapped ?? inputNames[0] ?? "");
  const [said, setSaid] = useState("");
  const target = inputNames.includes(input) ? input : (inputNames[0] ?? "");
  const pick = target
    ? (from: string) => {
        onMap({ input: target, from });
        setSaid(`Mapped ${from} to the input ${target}.`);
      }
    : null;

  return (
    <div className="space-y-3" aria-label="Captured request" role="group">
      {inputNames.length > 0 ? (
        <div className="space-y-1">
          <label htmlFor={selectId} className="block text-xs font-medium text-foreground">
            Map to input
          </label>
          <select id={selectId} className={CONTROL_CLASS} value={target} onChange={(event) => setInput(event.target.value)}>
            {inputNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <p className="text-xs text-muted">Press a value below to fill this input from it in every delivery.</p>
        </div>
      ) : (
        <p className="text-xs text-muted">Add a field to Run inputs to map values of the request into it.</p>
      )}
      <p aria-live="polite" className="text-xs font-medium text-foreground">
        {said}
      </p>
      <RequestPartTree title="Body" part="body" value={capture.body} target={target} pick={pick} />
      <RequestPartTree title="Query" part="query" value={capture.query} target={target} pick={pick} />
      <RequestPartTree title="Headers" part="headers" value={capture.headers} target={target} pick={pick} />
      <RequestPartTree title="Method" part="method" value={capture.method} target={target} pick={pick} />
    </div>
  );
}

interface TreeProps {
  part: RequestPart;
  target: string;
  pick: ((from: string) => void) | null;
}

function RequestPartTree({ title, value, ...tree }: TreeProps & { title: string; value: unknown }) {
  const empty = value === null || value === undefined || (typeof value === "object" && Object.keys(value).length === 0);
  return (
    <section aria-label={title} className="rounded-md border border-line bg-surface-sunken px-2 py-1.5">
      <h4 className="text-[11px] font-semibold uppercase tracking-wide text-muted">{title}</h4>
      {empty ? <p className="text-xs text-muted">(empty)</p> : <ValueTree {...tree} path={[]} value={value} />}
    </section>
  );
}

function ValueTree({ part, path, value, target, pick }: TreeProps & { path: (string | number)[]; value: unknown }) {
  if (value !== null && typeof value === "object") {
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
    return (
      <ul className="space-y-0.5 border-l border-line pl-2 text-xs">
        {entries.map(([key, inner]) => (
          <li key={String(key)} className="min-w-0">
            <span className="font-mono text-muted">{typeof key === "number" ? `[${key}]` : key}</span>
            {inner !== null && typeof inner === "object" ? ":" : ": "}
            <ValueTree part={part} path={[...path, key]} value={inner} target={target} pick={pick} />
          </li>
        ))}
      </ul>
    );
  }
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  const from = part === "method" ? "method" : sourceFor(part, path);
  const masked = value === SECRET_MASK;
  if (!pick || !from || masked) {
    const why = masked ? "Masked: a credential is never mapped." : !from ? "A mapping cannot name this place." : undefined;
    return (
      <span className="break-all font-mono text-foreground" title={why}>
        {shown}
      </span>
    );
  }
  return (
    <button
      type="button"
      className="break-all rounded px-1 text-left font-mono text-accent underline decoration-dotted underline-offset-2 hover:bg-accent/10 focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
      aria-label={`Map ${from} to ${target}`}
      title={`Map ${from} to ${target}`}
      onClick={() => pick(from)}
    >
      {shown}
    </button>
  );
}
