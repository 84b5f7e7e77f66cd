"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS } from "@/components/ui/field";
import { NewSecretDialog } from "./new-secret-dialog";
import { useStoredSecrets } from "./use-stored-secrets";

interface SecretPickerProps {
  id: string;
  /** The stored value: `${NAME}`, or nothing. */
  value: unknown;
  onChange: (value: string | undefined) => void;
  /** The tool the secret is for; `null` = tied to no tool (an agent's model key). */
  tool: string | null;
  toolTitle: string;
  credentialHelp: string;
  invalid?: boolean;
  describedBy?: string | undefined;
}

const REFERENCE = /^\$\{([A-Z_][A-Z0-9_]*)\}$/;

/**
 * Picks a stored secret for a tool's credential input (the tool's own secrets
 * and those tied to no tool), or stores a new one. The input then holds
 * `${NAME}`, never the value.
 */
export function SecretPicker({ id, value, onChange, tool, toolTitle, credentialHelp, invalid, describedBy }: SecretPickerProps) {
  const { secrets, error, reload } = useStoredSecrets();
  const [creating, setCreating] = useState(false);
  const [createdProblem, setCreatedProblem] = useState<{ name: string; problem: string } | null>(null);
  const current = typeof value === "string" ? value : "";
  const selected = REFERENCE.exec(current)?.[1] ?? null;
  const offered = (secrets ?? []).filter((secret) => secret.tool === tool || secret.tool === null);
  const missing = selected !== null && secrets !== null && !offered.some((secret) => secret.name === selected);
  const plainText = current !== "" && selected === null;

  return (
    <div className="space-y-2">
      <div className="flex gap-2">
        <select
          id={id}
          className={`${CONTROL_CLASS} font-mono`}
          value={selected ?? ""}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={describedBy}
          aria-busy={secrets === null && error === null}
          onChange={(event) => {
            setCreatedProblem(null);
            onChange(event.target.value === "" ? undefined : `\${${event.target.value}}`);
          }}
        >
          <option value="">{secrets === null && error === null ? "Loading secrets…" : "No secret chosen"}</option>
          {offered.map((secret) => (
            <option key={secret.name} value={secret.name}>
              {`\${${secret.name}}`}
              {secret.description ? ` — ${secret.description}` : ""}
            </option>
          ))}
          {missing ? <option value={selected}>{`\${${selected}} (not stored)`}</option> : null}
        </select>
        <Button onClick={() => setCreating(true)} aria-haspopup="dialog">
          New secret…
        </Button>
      </div>
      {error ? <p className="text-xs text-caution">The stored secrets could not be listed: {error}</p> : null}
      {plainText ? (
        <p className="text-xs text-caution">This value is written into the workflow in plain text. Choose a stored secret instead.</p>
      ) : null}
      {missing ? <p className="text-xs text-caution">No secret named {selected} is stored for this tool; create it or choose another.</p> : null}
      {createdProblem && createdProblem.name === selected && createdProblem.problem ? (
        <p role="status" className="text-xs font-medium text-caution">
          Set but unusable: {createdProblem.problem}
        </p>
      ) : null}
      <NewSecretDialog
        open={creating}
        tool={tool}
        toolTitle={toolTitle}
        credentialHelp={credentialHelp}
        onClose={() => setCreating(false)}
        onCreated={(name, problem) => {
          setCreating(false);
          setCreatedProblem({ name, problem });
          void reload();
          onChange(`\${${name}}`);
        }}
      />
    </div>
  );
}
