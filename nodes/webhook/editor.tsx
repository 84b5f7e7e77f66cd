"use client";

import { useMemo, useSyncExternalStore } from "react";
import { z } from "zod";
import { SecretPicker } from "@/components/schema-form/secret-picker";
import { Field, FieldError } from "@/components/ui/field";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import type { JsonSchema } from "@/lib/schema-form/field-descriptors";
import { inputFieldsOf } from "@/lib/workflow/run-inputs";
import { SettingsSection } from "../settings-section";
import type { NodeInspectorPanelProps, NodeKindEditor } from "../node-kind-editor";
import { AddressLine, CurlExample } from "./address-parts";
import { TestDeliverySection } from "./test-delivery";
import { withMapping } from "./request-mapping";
import { HOOK_PREFIXES, hookPath, WebhookSettingsSchema, type WebhookAuthentication, type WebhookNode, type WebhookSettings } from "./definition";

const AUTHENTICATIONS: { value: Exclude<WebhookAuthentication, "unset">; label: string; help: string }[] = [
  { value: "header-token", label: "A token in a header", help: "Senders put a stored secret in a header, e.g. Authorization: Bearer …" },
  { value: "hmac-sha256", label: "An HMAC-SHA256 signature", help: "Senders sign the body with a shared secret (GitHub, Stripe, Shopify…); replays outside the window are refused." },
  { value: "none", label: "None", help: "Anyone who learns the address can start this workflow. Choose it only for harmless workflows." },
];

/** The page's origin never changes while it is open. */
const neverChanges = () => () => undefined;

/** The settings' fields the panel draws itself: the authentication choice and the secret picker. */
const DRAWN_HERE = ["authentication", "secret"] as const;

/** The settings form's JSON Schema, with the run's input names offered for the mapping. */
function settingsSchema(inputNames: readonly string[]): JsonSchema {
  const schema = z.toJSONSchema(WebhookSettingsSchema, { io: "input" }) as JsonSchema & { properties: Record<string, JsonSchema> };
  const mapping = schema.properties.mapping as { items?: { properties?: Record<string, JsonSchema> } };
  const input = mapping.items?.properties?.input;
  if (input && inputNames.length > 0) mapping.items!.properties!.input = { ...input, enum: [...inputNames] };
  return schema;
}

function settingsOf(node: WebhookNode): Record<string, unknown> {
  const { id: _id, kind: _kind, label: _label, position: _position, hookId: _hookId, ...settings } = node;
  return settings;
}

/** A webhook trigger: its address (with a copy button and a ready curl), how senders prove who they are, and the rest of its settings. */
export function WebhookPanel({ node, definition, problems, onChange }: NodeInspectorPanelProps<WebhookNode>) {
  const inputNames = useMemo(() => inputFieldsOf(definition).map((field) => field.name), [definition]);
  const schema = useMemo(() => settingsSchema(inputNames), [inputNames]);
  const origin = useSyncExternalStore(neverChanges, () => window.location.origin, () => "");
  const url = `${origin}${HOOK_PREFIXES.live}${hookPath(node)}`;
  const problemOf = (field: string) =>
    problems
      .filter((problem) => problem.field === field)
      .map((problem) => problem.message)
      .join(" ") || undefined;
  const formProblems = Object.fromEntries(problems.flatMap((problem) => (problem.field && !DRAWN_HERE.includes(problem.field as never) ? [[problem.field, problem.message]] : [])));
  const update = (settings: Partial<WebhookSettings>) => onChange({ ...node, ...settings });
  const authenticationError = problemOf("authentication");
  const secretError = problemOf("secret");
  const authId = `inspector-${node.id}-authentication`;

  return (
    <>
      <PanelSection title="Address" description="Live once the workflow is published (Publish, beside Save): deliveries start the published version. Saving a draft changes nothing live.">
        <div className="space-y-2">
          <AddressLine url={url} copyLabel="Copy the address" testId="webhook-url" />
          <CurlExample node={node} url={url} />
        </div>
      </PanelSection>
      <TestDeliverySection
        node={node}
        origin={origin}
        inputNames={inputNames}
        onMap={(entry) => update({ mapping: withMapping(node.mapping, entry) })}
      />
      <PanelSection title="Who may call it">
        <fieldset className="space-y-2" aria-describedby={authenticationError ? `${authId}-error` : undefined}>
          <legend className="sr-only">Authentication</legend>
          {AUTHENTICATIONS.map((option) => (
            <label key={option.value} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name={authId}
                className="mt-1"
                checked={node.authentication === option.value}
                onChange={() => update({ authentication: option.value })}
              />
              <span>
                <span className="font-medium text-foreground">{option.label}</span>
                <span className="block text-xs text-muted">{option.help}</span>
              </span>
            </label>
          ))}
          <FieldError id={authId} error={authenticationError} />
        </fieldset>
        {node.authentication === "header-token" || node.authentication === "hmac-sha256" ? (
          <Field id={`${authId}-secret`} label="Secret" required error={secretError} help={WebhookSettingsSchema.shape.secret.description}>
            <SecretPicker
              id={`${authId}-secret`}
              value={node.secret}
              tool={null}
              toolTitle="Webhook"
              credentialHelp={node.authentication === "header-token" ? "The token senders must present." : "The signing secret the sender was given."}
              invalid={Boolean(secretError)}
              describedBy={secretError ? `${authId}-secret-error` : undefined}
              onChange={(value) => update({ secret: value ?? "" })}
            />
          </Field>
        ) : null}
      </PanelSection>
      <SettingsSection<WebhookSettings> nodeId={node.id} schema={schema} value={settingsOf(node)} problems={formProblems} replaced={{ authentication: null, secret: null }} onChange={update}>
        The request, the answer and the limits.
      </SettingsSection>
    </>
  );
}

export const webhookEditor = {
  Panel: WebhookPanel,
  problemFields: ["authentication", "secret", "path", "methods", "header", "prefix", "signatureStyle", "toleranceSeconds", "idempotencyHeader", "respond", "timeoutSeconds", "responseStatus", "responseType", "maxBodyKilobytes", "ratePerMinute", "allowedOrigins", "keepHeaders", "mapping"],
} satisfies NodeKindEditor<WebhookNode>;
