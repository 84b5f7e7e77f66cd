"use client";

import { useState, type ReactNode } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";
import { CONTROL_CLASS } from "./field";

interface ShownOnceDialogProps {
  title: string;
  description: ReactNode;
  /** The text box's accessible name ("Invitation link", "Token"). */
  label: string;
  value: string;
  /** The copy button's label ("Copy link"). */
  copyLabel: string;
  onClose: () => void;
  /** Said under the value: what to do with it. */
  children?: ReactNode;
}

/**
 * A secret the studio shows once and then keeps only the digest of (an
 * invitation link, a personal access token): selected when focused, a Copy
 * button, and Done.
 */
export function ShownOnceDialog({ title, description, label, value, copyLabel, onClose, children }: ShownOnceDialogProps) {
  const [copied, setCopied] = useState(false);
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      description={description}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="space-y-3">
        <input readOnly value={value} aria-label={label} className={`${CONTROL_CLASS} font-mono text-xs`} onFocus={(event) => event.currentTarget.select()} />
        {children}
        <Button
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : copyLabel}
        </Button>
      </div>
    </Dialog>
  );
}
