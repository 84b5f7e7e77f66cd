"use client";

import { useFormatTime } from "@/components/ui/use-format-time";
import { useMemo } from "react";
import { z } from "zod";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import type { JsonSchema } from "@/lib/schema-form/field-descriptors";
import { SettingsSection } from "../settings-section";
import type { NodeInspectorPanelProps, NodeKindEditor } from "../node-kind-editor";
import { ScheduleSettingsSchema, type ScheduleNode, type ScheduleSettings } from "./definition";
import { scheduleReading } from "./reading";
import { compileSchedule, isProblem, localTimeZone, nextSlots } from "./slots";

/** How many firing times the panel lists. */
const UPCOMING = 5;

const SETTINGS_SCHEMA = z.toJSONSchema(ScheduleSettingsSchema, { io: "input" }) as JsonSchema;

function settingsOf(node: ScheduleNode): ScheduleSettings {
  const { id: _id, kind: _kind, label: _label, position: _position, ...settings } = node;
  return settings;
}

/** A schedule trigger: its timetable in words, the next firing times in its zone, and its settings with their problems beside them. */
export function SchedulePanel({ node, problems, onChange }: NodeInspectorPanelProps<ScheduleNode>) {
  const browserZone = useMemo(() => localTimeZone(), []);
  // The schedule's zone, in the viewer's locale and clock.
  const formatTime = useFormatTime();
  const compiled = useMemo(() => compileSchedule(node, browserZone), [node, browserZone]);
  const upcoming = useMemo(() => (isProblem(compiled) ? [] : nextSlots(compiled, UPCOMING, new Date())), [compiled]);
  // The server's findings, and what is wrong right now as the person types (before the next validation comes back).
  const formProblems: Record<string, string> = Object.fromEntries(problems.flatMap((problem) => (problem.field ? [[problem.field, problem.message]] : [])));
  if (isProblem(compiled)) formProblems[compiled.field] ??= compiled.message;
  const hidden = node.form === "every" ? { cron: null } : { everyMinutes: null };

  return (
    <>
      <PanelSection title="When it runs" description="Live once the workflow is published (Publish, beside Save): each slot starts the published version once. Saving a draft changes nothing live.">
        <p className="text-sm font-medium text-foreground" data-testid="schedule-reading">
          {isProblem(compiled) ? "No timetable yet: see the problem below." : scheduleReading(node)}
        </p>
        {isProblem(compiled) ? null : (
          <div className="space-y-1">
            <p className="text-xs text-muted">
              Next {UPCOMING} firing times, in {compiled.zone}
              {node.timezone ? "" : ` (your browser's zone; the server reads an empty zone as its own)`}:
            </p>
            <ol className="space-y-0.5 font-mono text-xs text-foreground" data-testid="schedule-upcoming">
              {upcoming.map((slot) => (
                <li key={slot.getTime()}>
                  <time dateTime={slot.toISOString()}>{formatTime(slot, "slot", compiled.zone)}</time>
                </li>
              ))}
            </ol>
          </div>
        )}
      </PanelSection>
      <SettingsSection<ScheduleSettings> nodeId={node.id} schema={SETTINGS_SCHEMA} value={settingsOf(node)} problems={formProblems} replaced={hidden} onChange={(settings) => onChange({ ...node, ...settings })}>
        The timetable, its time zone, and what happens to missed and overlapping slots.
      </SettingsSection>
    </>
  );
}

export const scheduleEditor = {
  Panel: SchedulePanel,
  problemFields: ["form", "everyMinutes", "cron", "timezone", "missed", "overlap"],
} satisfies NodeKindEditor<ScheduleNode>;
