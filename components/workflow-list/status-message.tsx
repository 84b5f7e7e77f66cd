export interface StatusMessageValue {
  tone: "neutral" | "safe" | "caution";
  text: string;
}

const TONES: Record<StatusMessageValue["tone"], string> = {
  neutral: "border-line bg-surface text-foreground",
  safe: "border-safe/30 bg-safe-soft text-safe",
  caution: "border-caution/40 bg-caution-soft text-caution",
};

/**
 * The outcome of the last action ("Duplicated …", "Saved, but …"), read out
 * by screen readers. The live region stays in the page even when empty, so
 * a message that appears in it is announced.
 */
export function StatusMessage({ message, onDismiss }: { message: StatusMessageValue | null; onDismiss: () => void }) {
  return (
    <div
      className={
        message ? `mb-4 flex items-center justify-between gap-3 rounded-lg border px-4 py-2.5 text-sm ${TONES[message.tone]}` : "contents"
      }
    >
      <p role="status" aria-live="polite" className={message ? "" : "sr-only"}>
        {message?.text}
      </p>
      {message ? (
        <button type="button" onClick={onDismiss} className="-my-0.5 shrink-0 rounded px-1.5 text-xs font-medium opacity-80 hover:opacity-100">
          Dismiss
        </button>
      ) : null}
    </div>
  );
}
