"use client";

import { useState } from "react";
import { useWatch, type FieldPath } from "react-hook-form";
import { applyApiError } from "@/components/secrets/apply-api-error";
import { Button } from "@/components/ui/button";
import { Dialog, FormDialog } from "@/components/ui/dialog";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { useZodForm } from "@/components/ui/use-zod-form";
import { api } from "@/lib/client/api";
import type { McpServerView } from "@/lib/contracts/mcp-server";
import {
  commandTextOf,
  McpMaxCallSecondsSchema,
  McpServerFormSchema,
  StdioServerConfigSchema,
  toFormValues,
  withCommandConfirmed,
  type McpServerConfigInput,
  type McpServerFormValues,
} from "@/lib/validations/mcp-server";
import { CommandReview } from "./command-review";

const FIELDS: FieldPath<McpServerFormValues>[] = ["name", "transport", "toolPrefix", "maxCallSeconds", "command", "args", "env", "cwd", "url", "headers"];

/**
 * Adds a server, or edits one (`server` given). The form and the API check
 * with the same schema. A new or changed stdio command is shown in full for
 * the person to confirm before it is saved and first started.
 */
export function McpServerDialog({
  server,
  onClose,
  onSaved,
}: {
  server: McpServerView | null;
  onClose: () => void;
  onSaved: (server: McpServerView) => void;
}) {
  const { register, control, handleSubmit, setError, formState } = useZodForm<McpServerFormValues, McpServerConfigInput>(McpServerFormSchema, toFormValues(server));
  const { errors, isSubmitting } = formState;
  const transport = useWatch({ control, name: "transport" });
  // The configuration waiting for the person to read its command and confirm it.
  const [review, setReview] = useState<McpServerConfigInput | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async (body: McpServerConfigInput) => {
    setSaving(true);
    try {
      const path = server ? `/api/mcp-servers/${server.id}` : "/api/mcp-servers";
      const response = await api<{ server: McpServerView }>(path, { method: server ? "PUT" : "POST", body });
      onSaved(response.server);
    } catch (error) {
      setReview(null);
      applyApiError(error, setError, FIELDS, "name");
    } finally {
      setSaving(false);
    }
  };

  const submit = handleSubmit(async (body) => {
    const text = commandTextOf(body);
    const storedText = server && server.transport === "stdio" ? commandTextOf(server) : null;
    if (text !== null && text !== storedText) setReview(body);
    else await save(body);
  });

  if (review !== null && review.transport === "stdio") {
    return (
      <Dialog
        open
        wide
        onClose={onClose}
        title="Run this command on this machine?"
        description={`The MCP server ${review.name} is this program. Nothing runs until you confirm.`}
        footer={
          <>
            <Button variant="ghost" onClick={() => setReview(null)} disabled={saving}>
              Back to the form
            </Button>
            <Button variant="primary" onClick={() => void save(withCommandConfirmed(review))} disabled={saving}>
              {saving ? "Starting…" : "Run this command"}
            </Button>
          </>
        }
      >
        <CommandReview config={StdioServerConfigSchema.parse(review)} />
      </Dialog>
    );
  }

  const text = (name: FieldPath<McpServerFormValues>, label: string, help: string, options: { placeholder?: string; mono?: boolean; lines?: number; required?: boolean } = {}) => {
    const id = `mcp-${name}`;
    const error = (errors as Record<string, { message?: string } | undefined>)[name]?.message;
    const props = {
      ...register(name),
      ...fieldAria(id, { help, error }),
      className: `${CONTROL_CLASS} ${options.mono ? "font-mono" : ""}`,
      placeholder: options.placeholder,
      autoComplete: "off",
      spellCheck: false,
    };
    return (
      <Field id={id} label={label} help={help} error={error} required={options.required}>
        {options.lines ? <textarea rows={options.lines} {...props} /> : <input {...props} />}
      </Field>
    );
  };

  return (
    <FormDialog
      onSubmit={submit}
      onClose={onClose}
      wide
      title={server ? `Edit ${server.name}` : "Add an MCP server"}
      description="A program started on this machine (stdio) or a server reached over streamable HTTP. Its tools join the palette."
      pending={isSubmitting || saving}
      submitLabel="Save and connect"
      pendingLabel="Connecting…"
      error={errors.root?.server?.message}
      errorTitle="Not saved"
    >
      {text("name", "Name", "Lower-case letters, digits, - and _. The palette groups the server's tools under it.", { placeholder: "files", mono: true, required: true })}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Transport</legend>
        <div className="flex gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" value="stdio" {...register("transport")} /> stdio (a program on this machine)
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" value="http" {...register("transport")} /> Streamable HTTP (a remote server)
          </label>
        </div>
      </fieldset>
      {transport === "stdio" ? (
        <>
          {text("command", "Command", "The program to start, e.g. npx, node or uvx.", { placeholder: "npx", mono: true, required: true })}
          {text("args", "Arguments", "One per line.", { placeholder: "-y\n@modelcontextprotocol/server-filesystem\n/home/me/notes", mono: true, lines: 3 })}
          {text(
            "env",
            "Environment",
            "One KEY=value per line. Write ${NAME} to use a stored secret, e.g. GITHUB_TOKEN=${GITHUB_TOKEN}. The server gets only these, PATH, HOME and LANG.",
            { placeholder: "GITHUB_TOKEN=${GITHUB_TOKEN}", mono: true, lines: 3 },
          )}
          {text("cwd", "Working directory", "An absolute folder; empty for the studio's own.", { placeholder: "/home/me/project", mono: true })}
        </>
      ) : (
        <>
          {text("url", "URL", "The server's streamable HTTP endpoint. Its tools cannot reach this machine's localhost.", { placeholder: "https://example.com/mcp", mono: true, required: true })}
          {text("headers", "Headers", "One Name: value per line. Write ${NAME} to use a stored secret, e.g. Authorization: Bearer ${API_TOKEN}.", {
            placeholder: "Authorization: Bearer ${API_TOKEN}",
            mono: true,
            lines: 3,
          })}
        </>
      )}
      {text("toolPrefix", "Tool prefix", "Optional. When a tool's name is taken, it becomes <prefix>__<tool> (else <server>__<tool>).", { mono: true })}
      {text("maxCallSeconds", "Longest call (seconds)", McpMaxCallSecondsSchema.description ?? "", { placeholder: "600" })}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" {...register("enabled")} /> Enabled: connect now and offer its tools
      </label>
    </FormDialog>
  );
}
