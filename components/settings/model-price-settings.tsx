"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Fragment, useState } from "react";
import { useFieldArray, useForm, type FieldPath } from "react-hook-form";
import { MODEL_PROVIDERS } from "@/components/editor/model-fields";
import { Button } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { CONTROL_CLASS, FieldError, fieldAria } from "@/components/ui/field";
import { ErrorNotice, PageHeader } from "@/components/ui/page-header";
import { api, ApiError } from "@/lib/client/api";
import {
  ModelPriceFormSchema,
  modelPriceFormValues,
  type ModelKey,
  type ModelPriceFormValues,
  type ModelPriceOverview,
  type ModelPriceTable,
} from "@/lib/contracts/model-prices";
import type { AgentProvider } from "@/nodes/agent/definition";
import { SaveButton } from "./save-button";

const PRICE_COLUMNS = [
  { field: "inputPerMillion", label: "Input", placeholder: "2.50" },
  { field: "cachedInputPerMillion", label: "Cached input", placeholder: "as input" },
  { field: "outputPerMillion", label: "Output", placeholder: "10.00" },
] as const;

/** The table's column heads: the prices' with their unit, and the Remove buttons' (named for screen readers only). */
const PRICE_TABLE_COLUMNS = [
  "Provider",
  "Model",
  ...PRICE_COLUMNS.map((column) => (
    <Fragment key={column.field}>
      {column.label} <span className="normal-case">($ / M tokens)</span>
    </Fragment>
  )),
  <span key="remove" className="sr-only">
    Remove
  </span>,
];

/** "OpenAI-compatible server (Ollama, vLLM, LM Studio)" -> "OpenAI-compatible": a table cell's width. */
const providerLabel = (provider: string) => MODEL_PROVIDERS.find((each) => each.value === provider)?.label.replace(/ server \(.*\)$/, "") ?? provider;
const emptyRow = (model?: ModelKey) => ({
  provider: (MODEL_PROVIDERS.some((each) => each.value === model?.provider) ? model!.provider : "openai") as AgentProvider,
  model: model?.model ?? "",
  inputPerMillion: "",
  cachedInputPerMillion: "",
  outputPerMillion: "",
});

/**
 * Settings → Model prices: what each model costs per million tokens, in US
 * dollars, as a table of rows to add, change and remove, saved whole. Empty
 * until someone fills it: a model without a row shows its tokens and "no price
 * set", never a guessed cost. The form parses with the API's schema
 * (lib/contracts/model-prices.ts), so a mistake is named on its cell before
 * anything is sent, and the server's 422 lands on the same cell.
 */
export function ModelPriceSettings({ initial }: { initial: ModelPriceOverview }) {
  const [overview, setOverview] = useState(initial);
  const [saved, setSaved] = useState(false);
  const {
    control,
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ModelPriceFormValues, unknown, ModelPriceTable>({
    resolver: zodResolver(ModelPriceFormSchema),
    defaultValues: modelPriceFormValues(initial.prices),
    // Checked when saved, then as corrected: a row just added is not wrong yet.
    mode: "onSubmit",
  });
  const { fields, append, remove } = useFieldArray({ control, name: "prices" });

  const submit = handleSubmit(async (body) => {
    setSaved(false);
    try {
      const next = await api<ModelPriceOverview>("/api/settings/model-prices", { method: "PUT", body });
      setOverview(next);
      reset(modelPriceFormValues(next.prices));
      setSaved(true);
    } catch (error) {
      placeServerIssues(error, setError);
    }
  });

  return (
    <div className="space-y-8">
      <PageHeader
        title="Model prices"
        description="What each model costs, in US dollars (USD) per million tokens. Runs show their agent steps' tokens and, for models priced here, their cost — computed at today's prices, so a change here re-prices past runs too. Nothing is guessed: a model without a price shows its tokens and “no price set”."
      />
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Model prices">
        {fields.length === 0 ? (
          <p className="rounded-lg border border-dashed border-line p-4 text-sm text-muted" data-testid="no-prices">
            No prices yet: runs show tokens only. Add a price for each model your Agent steps use.
          </p>
        ) : (
          <DataTable caption="Prices in US dollars per million tokens" columns={PRICE_TABLE_COLUMNS}>
            {fields.map((row, index) => {
              const rowErrors = errors.prices?.[index];
              const cell = (field: "provider" | "model" | (typeof PRICE_COLUMNS)[number]["field"]) => {
                const id = `price-${index}-${field}`;
                const message = rowErrors?.[field]?.message;
                return { id, error: message ? `${field}: ${message}` : undefined };
              };
              const model = cell("model");
              const provider = cell("provider");
              return (
                <tr key={row.id} className="align-top">
                  <td className="px-3 py-2">
                    <select {...register(`prices.${index}.provider`)} {...fieldAria(provider.id, provider)} aria-label={`Provider of row ${index + 1}`} className={`${CONTROL_CLASS} min-w-52`}>
                      {MODEL_PROVIDERS.map((each) => (
                        <option key={each.value} value={each.value}>
                          {providerLabel(each.value)}
                        </option>
                      ))}
                    </select>
                    <FieldError id={provider.id} error={provider.error} />
                  </td>
                  <td className="px-3 py-2">
                    <input
                      {...register(`prices.${index}.model`)}
                      {...fieldAria(model.id, model)}
                      aria-label={`Model of row ${index + 1}`}
                      placeholder="gpt-4.1-mini"
                      autoComplete="off"
                      className={`${CONTROL_CLASS} min-w-56`}
                    />
                    <FieldError id={model.id} error={model.error} />
                  </td>
                  {PRICE_COLUMNS.map((column) => {
                    const price = cell(column.field);
                    return (
                      <td key={column.field} className="px-3 py-2">
                        <input
                          {...register(`prices.${index}.${column.field}`)}
                          {...fieldAria(price.id, price)}
                          aria-label={`${column.label} price of row ${index + 1}, US dollars per million tokens`}
                          placeholder={column.placeholder}
                          inputMode="decimal"
                          autoComplete="off"
                          className={`${CONTROL_CLASS} min-w-28 tabular-nums`}
                        />
                        <FieldError id={price.id} error={price.error} />
                      </td>
                    );
                  })}
                  <td className="px-3 py-2">
                    <Button size="sm" variant="ghost" onClick={() => remove(index)} aria-label={`Remove row ${index + 1}`}>
                      Remove
                    </Button>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={() => append(emptyRow())}>Add a price</Button>
          <SaveButton label="Save prices" submitting={isSubmitting} saved={saved} />
        </div>
        {errors.root?.server ? <ErrorNotice title="Not saved">{errors.root.server.message}</ErrorNotice> : null}
      </form>
      {overview.unpricedModels.length > 0 ? (
        <section aria-labelledby="unpriced-models" className="space-y-3">
          <h2 id="unpriced-models" className="text-lg font-semibold">
            Used without a price
          </h2>
          <p className="text-sm text-muted">Runs have used these models; their tokens are counted but cost nothing until they have a price.</p>
          <ul className="flex flex-wrap gap-2">
            {overview.unpricedModels.map((model) => (
              <li key={`${model.provider}/${model.model}`}>
                <Button size="sm" onClick={() => append(emptyRow(model))}>
                  Add {providerLabel(model.provider)} {model.model}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** A 422's issues on the cells their paths name (`prices[2].inputPerMillion`); anything else on the form. */
function placeServerIssues(error: unknown, setError: (name: FieldPath<ModelPriceFormValues> | "root.server", error: { type: string; message: string }) => void): void {
  const issues = error instanceof ApiError ? error.issues : [];
  const placed = issues.filter((issue) => {
    const match = /^prices\[(\d+)\]\.(provider|model|inputPerMillion|cachedInputPerMillion|outputPerMillion)$/.exec(issue.path);
    if (match) setError(`prices.${Number(match[1])}.${match[2] as "model"}`, { type: "server", message: issue.message });
    return match !== null;
  });
  if (placed.length < issues.length || issues.length === 0) setError("root.server", { type: "server", message: error instanceof Error ? error.message : String(error) });
}
