"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { ErrorNotice } from "@/components/ui/page-header";
import { issuesByField } from "@/components/secrets/form-issues";
import { api, ApiError } from "@/lib/client/api";
import { starterDefinition } from "./starter-definition";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";

const FORM_ID = "new-workflow-form";

interface FormErrors {
  name?: string;
  description?: string;
  form?: string;
}

/** Asks for a name (and a description), creates the starter workflow and opens it in the editor. */
export function NewWorkflowDialog({ onClose }: { onClose: () => void }) {
  useRestoreFocus();
  const router = useRouter();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [errors, setErrors] = useState<FormErrors>({});
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (name.trim() === "") {
      setErrors({ name: "Give the workflow a name." });
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const { workflow } = await api<{ workflow: { id: string } }>("/api/workflows", {
        body: starterDefinition({ name, description }),
      });
      // Stays pending while the editor loads, so the button cannot create a second one.
      router.push(`/workflows/${encodeURIComponent(workflow.id)}`);
    } catch (error) {
      setPending(false);
      if (error instanceof ApiError && error.issues.length > 0) {
        const sorted = issuesByField(error.issues, ["name", "description"] as const);
        setErrors({ ...sorted.fields, form: sorted.other.length > 0 ? error.message : undefined });
      } else {
        setErrors({ form: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="New workflow"
      description="It starts with the run's inputs connected to its output; add tools between them in the editor."
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={FORM_ID} disabled={pending}>
            {pending ? "Creating…" : "Create and open"}
          </Button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={submit} noValidate className="space-y-4">
        <Field id="new-workflow-name" label="Name" required error={errors.name}>
          <input
            {...fieldAria("new-workflow-name", { error: errors.name })}
            className={CONTROL_CLASS}
            value={name}
            onChange={(event) => setName(event.target.value)}
            maxLength={200}
            autoComplete="off"
            autoFocus
            placeholder="Nightly report"
          />
        </Field>
        <Field
          id="new-workflow-description"
          label="Description"
          help="Optional: what it does, for the list and for whoever runs it."
          error={errors.description}
        >
          <textarea
            {...fieldAria("new-workflow-description", { help: true, error: errors.description })}
            className={`${CONTROL_CLASS} min-h-20 resize-y`}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            maxLength={5000}
            rows={3}
          />
        </Field>
        {errors.form ? <ErrorNotice title="The workflow was not created">{errors.form}</ErrorNotice> : null}
      </form>
    </Dialog>
  );
}
