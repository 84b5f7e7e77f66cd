"use client";

import { useState, type ComponentProps } from "react";
import { CONTROL_CLASS } from "@/components/ui/field";

/**
 * A password field with Show/Hide, for checking what was typed before it is
 * saved. Once saved, a value is never shown again: this field only ever
 * holds what the person is typing now.
 */
export function SecretValueInput({ id, ...props }: ComponentProps<"input"> & { id: string }) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="flex gap-2">
      <input
        id={id}
        type={visible ? "text" : "password"}
        autoComplete="new-password"
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
        className={`${CONTROL_CLASS} font-mono`}
        {...props}
      />
      <button
        type="button"
        aria-controls={id}
        aria-pressed={visible}
        onClick={() => setVisible((shown) => !shown)}
        className="inline-flex h-9 shrink-0 items-center rounded-md border border-line-strong bg-surface px-3 text-xs font-medium text-muted shadow-card hover:bg-surface-sunken hover:text-foreground"
      >
        {visible ? "Hide" : "Show"}
        <span className="sr-only"> value</span>
      </button>
    </div>
  );
}
