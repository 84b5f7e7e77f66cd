"use client";

import { useEffect, useRef, useState } from "react";
import { CONTROL_CLASS } from "@/components/ui/field";

interface JsonValueInputProps {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  describedBy?: string | undefined;
  invalid?: boolean;
}

function show(value: unknown): string {
  return value === undefined ? "" : JSON.stringify(value, null, 2);
}

/**
 * Any JSON value, typed as JSON. What does not parse stays in the box with
 * its error and is not passed on; clearing the box means "no value".
 */
export function JsonValueInput({ id, value, onChange, describedBy, invalid }: JsonValueInputProps) {
  const [text, setText] = useState(() => show(value));
  const [parseError, setParseError] = useState<string | null>(null);
  const emitted = useRef(show(value));
  useEffect(() => {
    const incoming = show(value);
    if (incoming !== emitted.current) {
      emitted.current = incoming;
      setText(incoming);
      setParseError(null);
    }
  }, [value]);
  return (
    <div className="space-y-1">
      <textarea
        id={id}
        className={`${CONTROL_CLASS} min-h-20 font-mono text-xs`}
        value={text}
        spellCheck={false}
        aria-invalid={parseError || invalid ? true : undefined}
        aria-describedby={[describedBy, parseError ? `${id}-json-error` : null].filter(Boolean).join(" ") || undefined}
        placeholder='e.g. {"name": "value"}'
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          if (next.trim() === "") {
            setParseError(null);
            emitted.current = "";
            onChange(undefined);
            return;
          }
          try {
            const parsed: unknown = JSON.parse(next);
            setParseError(null);
            emitted.current = show(parsed);
            onChange(parsed);
          } catch (error) {
            setParseError(`Not valid JSON yet: ${error instanceof Error ? error.message : String(error)}`);
          }
        }}
      />
      {parseError ? (
        <p id={`${id}-json-error`} className="text-xs font-medium text-caution">
          {parseError}
        </p>
      ) : null}
    </div>
  );
}
