"use client";

import { Field } from "@/components/ui/field";
import { SecretPicker } from "@/components/schema-form";
import { humanise } from "@/lib/schema-form/field-descriptors";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { ToolNode } from "./definition";
import { PanelSection } from "@/components/editor/inspector/panel-section";

interface CredentialsSectionProps {
  node: ToolNode;
  tool: CatalogTool;
  problems: Record<string, string>;
  onChange: (node: ToolNode) => void;
}

/** The tool's secret inputs: each bound to a stored secret as `${NAME}`, never shown to a model. */
export function CredentialsSection({ node, tool, problems, onChange }: CredentialsSectionProps) {
  if (tool.secretInputs.length === 0) return null;
  return (
    <PanelSection title="Credentials" description="Stored encrypted in Settings → Secrets; the workflow keeps only the name.">
      {tool.secretInputs.map((input) => {
        const id = `inspector-${node.id}-secret-${input.name}`;
        // The server's message repeats the credential help, which is already shown as help.
        const error = problems[input.name]?.replace(input.credentialHelp, "").trim() || undefined;
        const describedBy = [`${id}-help`, error ? `${id}-error` : null].filter(Boolean).join(" ");
        return (
          <Field key={input.name} id={id} label={humanise(input.name)} help={input.credentialHelp} error={error}>
            <SecretPicker
              id={id}
              value={node.arguments[input.name]}
              tool={tool.name}
              toolTitle={tool.title}
              credentialHelp={input.credentialHelp}
              invalid={Boolean(error)}
              describedBy={describedBy}
              onChange={(value) => {
                const next = { ...node.arguments };
                if (value === undefined) delete next[input.name];
                else next[input.name] = value;
                onChange({ ...node, arguments: next });
              }}
            />
          </Field>
        );
      })}
    </PanelSection>
  );
}
