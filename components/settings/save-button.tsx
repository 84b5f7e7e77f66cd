import { Button } from "@/components/ui/button";

/** A settings form's submit button ("Saving…" meanwhile) and, once the server took it, "Saved." announced beside it. */
export function SaveButton({ label, submitting, saved }: { label: string; submitting: boolean; saved: boolean }) {
  return (
    <>
      <Button variant="primary" type="submit" disabled={submitting}>
        {submitting ? "Saving…" : label}
      </Button>
      {saved ? (
        <span role="status" className="text-sm text-safe">
          Saved.
        </span>
      ) : null}
    </>
  );
}
