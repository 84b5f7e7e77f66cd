"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS } from "@/components/ui/field";
import { DirectoryBrowserDialog } from "./directory-browser-dialog";

interface DirectoryPickerProps {
  id: string;
  value: unknown;
  onChange: (value: string) => void;
  onBlur?: () => void;
  invalid?: boolean;
  describedBy?: string | undefined;
  required?: boolean;
}

/** A folder path: typed, or chosen by browsing the folders the server may show. */
export function DirectoryPicker({ id, value, onChange, onBlur, invalid, describedBy, required }: DirectoryPickerProps) {
  const [browsing, setBrowsing] = useState(false);
  const text = typeof value === "string" ? value : "";
  return (
    <div className="flex gap-2">
      <input
        id={id}
        type="text"
        className={`${CONTROL_CLASS} font-mono text-xs`}
        value={text}
        placeholder="/absolute/path/to/folder"
        spellCheck={false}
        autoComplete="off"
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        aria-required={required}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      <Button onClick={() => setBrowsing(true)} aria-haspopup="dialog">
        Browse…
      </Button>
      {browsing ? (
        <DirectoryBrowserDialog
          startPath={text}
          onClose={() => setBrowsing(false)}
          onChoose={(path) => {
            setBrowsing(false);
            onChange(path);
          }}
        />
      ) : null}
    </div>
  );
}
