"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { FormDialog } from "@/components/ui/dialog";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { issuesByField } from "@/components/secrets/form-issues";
import { api, ApiError } from "@/lib/client/api";
import { starterDefinition } from "./starter-definition";
import { useRestoreFocus } from "@/components/ui/use-restore-focus";
import { WorkflowNameField } from "./workflow-name-field";

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
    <FormDialog
      onSubmit={submit}
      onClose={onClose}
      title="New workflow"
      description="It starts with the run's inputs connected to its output; add tools between them in the editor."
      pending={pending}
      submitLabel="Create and open"
      pendingLabel="Creating…"
      error={errors.form}
      errorTitle="The workflow was not created"
      formClassName="space-y-4"
    >
      <WorkflowNameField id="new-workflow-name" value={name} onChange={setName} error={errors.name} placeholder="Nightly report" />
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
    </FormDialog>
  );
}
