"use client";

import { useEffect, useId, useRef, type FormEvent, type ReactNode } from "react";
import { Button } from "./button";
import { ErrorNotice } from "./page-header";

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

export interface FormDialogProps {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  wide?: boolean;
  /** True while the form is being sent: both buttons are disabled and the submit button says `pendingLabel`. */
  pending: boolean;
  submitLabel: string;
  /** "Saving…", "Creating…". */
  pendingLabel: string;
  /** Disables the submit button for another reason (what it edits is still loading). */
  submitDisabled?: boolean;
  /** The error that belongs to no field, shown under the fields. */
  error?: string | null | undefined;
  /** The error's heading: "Not saved". */
  errorTitle: string;
  /** Classes of the form (the space between its fields). */
  formClassName?: string;
  /** Shown instead of the form while what it edits loads, or when it could not be loaded. */
  instead?: ReactNode;
  /** The fields. */
  children: ReactNode;
}

/**
 * The frame every form dialog shares: title and description, the form with
 * its fields and the error that belongs to none of them, and a footer with
 * Cancel and a submit button that says when it is pending.
 */
export function FormDialog({
  onSubmit,
  onClose,
  title,
  description,
  wide,
  pending,
  submitLabel,
  pendingLabel,
  submitDisabled = false,
  error,
  errorTitle,
  formClassName = "space-y-5",
  instead,
  children,
}: FormDialogProps) {
  // Only ties the footer's submit button to the form (the footer is outside it), so the dialog names it itself.
  const formId = useId();
  return (
    <Dialog
      open
      wide={wide}
      onClose={onClose}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={formId} disabled={pending || submitDisabled}>
            {pending ? pendingLabel : submitLabel}
          </Button>
        </>
      }
    >
      {instead ?? (
        <form id={formId} onSubmit={onSubmit} noValidate className={formClassName}>
          {children}
          {error ? <ErrorNotice title={errorTitle}>{error}</ErrorNotice> : null}
        </form>
      )}
    </Dialog>
  );
}
