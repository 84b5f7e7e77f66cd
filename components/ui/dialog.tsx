"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Buttons along the bottom. */
  footer?: ReactNode;
  wide?: boolean;
}

/**
 * A modal on the native <dialog> element: focus is trapped and Escape closes
 * it, by the browser, without a library.
 */
export function Dialog({ open, onClose, title, description, children, footer, wide = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // Unique per dialog: one may open over another (confirming who you are over the dialog that asked for it).
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby={titleId}
      className={`m-auto w-[calc(100%-2rem)] rounded-xl border border-line bg-surface p-0 text-foreground shadow-card-raised backdrop:bg-black/40 ${wide ? "max-w-3xl" : "max-w-lg"}`}
    >
      {open ? (
        <div className="flex max-h-[85dvh] flex-col">
          <div className="border-b border-line px-6 py-4">
            <h2 id={titleId} className="text-base font-semibold">
              {title}
            </h2>
            {description ? <div className="mt-1 text-sm text-muted">{description}</div> : null}
          </div>
          <div className="overflow-y-auto px-6 py-5">{children}</div>
          {footer ? <div className="flex justify-end gap-2 border-t border-line px-6 py-3">{footer}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
