"use client";

import type { ReactNode } from "react";
import { SchemaForm } from "@/components/schema-form";
import type { JsonSchema } from "@/lib/schema-form/field-descriptors";
import { PanelSection } from "@/components/editor/inspector/panel-section";

/**
 * A trigger's "Settings" section in the inspector: its settings schema drawn as
 * a form (ids `inspector-<node>-settings-…`), with the fields the kind draws
 * itself left out (`replaced`). Used by the webhook and schedule editors.
 */
export function SettingsSection<Settings>({
  nodeId,
  children: description,
  schema,
  value,
  problems,
  replaced,
  onChange,
}: {
  nodeId: string;
  /** The section's description. */
  children: string;
  schema: JsonSchema;
  value: Record<string, unknown>;
  problems: Record<string, string>;
  replaced: Readonly<Record<string, ReactNode>>;
  onChange: (settings: Partial<Settings>) => void;
}) {
  return (
    <PanelSection title="Settings" description={description}>
      <SchemaForm schema={schema} value={value} idPrefix={`inspector-${nodeId}-settings`} problems={problems} replaced={replaced} onChange={(settings) => onChange(settings as Partial<Settings>)} />
    </PanelSection>
  );
}
