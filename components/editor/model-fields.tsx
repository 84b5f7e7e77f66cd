"use client";

import { SecretPicker } from "@/components/schema-form";
import { CONTROL_CLASS, Field } from "@/components/ui/field";
import type { AgentProvider } from "@/nodes/agent/definition";

/** The providers a person may choose, with the model id each suggests. */
export const MODEL_PROVIDERS: { value: AgentProvider; label: string; modelHint: string }[] = [
  { value: "openai", label: "OpenAI", modelHint: "gpt-4.1-mini" },
  { value: "anthropic", label: "Anthropic", modelHint: "claude-sonnet-4-5" },
  { value: "openai_compatible", label: "OpenAI-compatible server (Ollama, vLLM, LM Studio)", modelHint: "llama3.1" },
];

/** The providers as a select's options, by their full names: the Agent node's, the Architect's and the LLM judge's. */
export function ModelProviderOptions() {
  return MODEL_PROVIDERS.map((each) => (
    <option key={each.value} value={each.value}>
      {each.label}
    </option>
  ));
}

/** A model choice as an Agent node and the Architect store it: the key a stored secret as `${NAME}`. */
export interface ModelChoice {
  provider: AgentProvider;
  model: string;
  baseUrl?: string;
  apiKey?: string;
}

interface ModelFieldsProps {
  /** Prefix of the controls' ids: `${idPrefix}-provider`, …. */
  idPrefix: string;
  value: ModelChoice;
  errorOf: (field: keyof ModelChoice) => string | undefined;
  onChange: (change: Partial<ModelChoice>) => void;
}

/**
 * Which model answers: provider, model id, server address and API key (a
 * stored secret, never the key). One form for an Agent node's inspector and
 * the Architect's panel, so both say the same things the same way.
 */
export function ModelFields({ idPrefix, value, errorOf, onChange }: ModelFieldsProps) {
  const ids = (field: keyof ModelChoice) => `${idPrefix}-${field}`;
  const describedBy = (field: keyof ModelChoice, help = true) =>
    [help ? `${ids(field)}-help` : null, errorOf(field) ? `${ids(field)}-error` : null].filter(Boolean).join(" ") || undefined;
  const provider = MODEL_PROVIDERS.find((each) => each.value === value.provider) ?? MODEL_PROVIDERS[0]!;
  const local = value.provider === "openai_compatible";
  return (
    <>
      <Field id={ids("provider")} label="Provider" required error={errorOf("provider")}>
        <select
          id={ids("provider")}
          className={CONTROL_CLASS}
          value={value.provider}
          aria-describedby={describedBy("provider", false)}
          onChange={(event) => onChange({ provider: event.target.value as AgentProvider })}
        >
          <ModelProviderOptions />
        </select>
      </Field>
      <Field id={ids("model")} label="Model" required help={`The model id, e.g. ${provider.modelHint}.`} error={errorOf("model")}>
        <input
          id={ids("model")}
          className={CONTROL_CLASS}
          value={value.model}
          placeholder={provider.modelHint}
          aria-invalid={errorOf("model") ? true : undefined}
          aria-describedby={describedBy("model")}
          onChange={(event) => onChange({ model: event.target.value })}
        />
      </Field>
      <Field
        id={ids("baseUrl")}
        label="Base URL"
        required={local}
        help={local ? "The server's API address; Ollama: http://127.0.0.1:11434/v1." : "Leave empty for the provider's own API."}
        error={errorOf("baseUrl")}
      >
        <input
          id={ids("baseUrl")}
          className={CONTROL_CLASS}
          value={value.baseUrl ?? ""}
          placeholder={local ? "http://127.0.0.1:11434/v1" : ""}
          aria-invalid={errorOf("baseUrl") ? true : undefined}
          aria-describedby={describedBy("baseUrl")}
          onChange={(event) => onChange({ baseUrl: event.target.value.trim() || undefined })}
        />
      </Field>
      <Field
        id={ids("apiKey")}
        label="API key"
        required={!local}
        help="A stored secret; it is sent only in the request's Authorization header. Local servers usually need none."
        error={errorOf("apiKey")}
      >
        <SecretPicker
          id={ids("apiKey")}
          value={value.apiKey}
          tool={null}
          toolTitle={`${provider.label} API key`}
          credentialHelp="Paste the provider's API key. Store it in Settings → Secrets and reference it as ${NAME}."
          invalid={Boolean(errorOf("apiKey"))}
          describedBy={describedBy("apiKey")}
          onChange={(apiKey) => onChange({ apiKey })}
        />
      </Field>
    </>
  );
}
