"use client";

import { useEffect, useId, useState, type ChangeEvent } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { api } from "@/lib/client/api";
import {
  describeApprovers,
  excludesStarter,
  MAX_DEADLINE_MINUTES,
  MAX_REQUIRED_APPROVALS,
  type ApprovalDeadline,
  type ApprovalPolicy,
  type Approver,
} from "@/lib/contracts/approval-policy";
import { ALWAYS_ALLOW_DEFAULT_DAYS, ALWAYS_ALLOW_MAX_DAYS } from "@/lib/contracts/grants";
import { ROLE_TITLES, ROLES, type Role } from "@/lib/contracts/roles";
import { useEditorReadOnly } from "./read-only-context";

/** A colleague as the directory lists them (GET /api/people/directory): a name to pick, nothing more. */
interface Colleague {
  id: string;
  displayName: string;
}

/** The people a builder may name as approvers; empty while loading or when the directory is not theirs to read. */
export function useColleagues(): Colleague[] {
  const [colleagues, setColleagues] = useState<Colleague[]>([]);
  // A view-only editor's viewer may not read the directory: asking would only be refused (and logged as a refusal).
  const readOnly = useEditorReadOnly();
  useEffect(() => {
    if (readOnly) return;
    let live = true;
    api<{ people: Colleague[] }>("/api/people/directory")
      .then((answer) => live && setColleagues(answer.people))
      // Without it the builder can still name roles; people they cannot list they cannot pick.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [readOnly]);
  return colleagues;
}

interface ApprovalPolicyEditorProps {
  /** Names the fields for assistive technology and tests, e.g. "Shell commands". */
  label: string;
  /** The policy set here; undefined: it follows `inherited`. */
  value: ApprovalPolicy | undefined;
  /** What applies when nothing is set here, in words ("the workflow's rule: anyone who may decide"). */
  inherited: string;
  colleagues: readonly Colleague[];
  onChange: (policy: ApprovalPolicy | undefined) => void;
}

/**
 * One approval policy: who may decide (anyone who may decide approvals on the
 * workflow, or the roles and people named), how many different people must
 * approve, and whether the person who started the run is left out.
 */
export function ApprovalPolicyEditor({ label, value, inherited, colleagues, onChange }: ApprovalPolicyEditorProps) {
  const id = useId();
  const nameOf = (personId: string) => colleagues.find((person) => person.id === personId)?.displayName;
  if (!value) {
    return (
      <div className="flex items-center justify-between gap-2 text-xs">
        <p className="text-muted">
          <span className="font-medium text-foreground">{label}:</span> {inherited}
        </p>
        <Button size="sm" onClick={() => onChange({ approvers: [], required: 1 })} aria-label={`Set who approves: ${label}`}>
          Set
        </Button>
      </div>
    );
  }
  const set = (patch: Partial<ApprovalPolicy>) => onChange({ ...value, ...patch });
  const add = (approver: Approver) => set({ approvers: [...value.approvers, approver] });
  const remove = (index: number) => set({ approvers: value.approvers.filter((_, at) => at !== index) });
  const unnamedRoles = ROLES.filter((role) => !value.approvers.some((approver) => approver.kind === "role" && approver.role === role));
  const unnamedPeople = colleagues.filter((person) => !value.approvers.some((approver) => approver.kind === "person" && approver.personId === person.id));
  const starterHelp = value.excludeStarter === undefined ? `Unset: ${value.required >= 2 ? "left out" : "may decide"} (left out when two or more must approve).` : undefined;
  return (
    <fieldset className="space-y-3 rounded-lg border border-line p-3" aria-label={`Who approves: ${label}`}>
      <div className="flex items-center justify-between gap-2">
        <legend className="text-xs font-semibold text-foreground">{label}</legend>
        <Button size="sm" variant="ghost" onClick={() => onChange(undefined)} aria-label={`Follow ${inherited.replace(/\.$/, "")} for ${label}`}>
          Reset
        </Button>
      </div>
      <div className="space-y-1.5">
        <p className="text-xs text-muted">Who may decide: {value.approvers.length === 0 ? "anyone who may decide approvals on this workflow" : describeApprovers(value.approvers, nameOf)}</p>
        {value.approvers.length > 0 ? (
          <ul className="flex flex-wrap gap-1.5">
            {value.approvers.map((approver, index) => {
              const name = approver.kind === "role" ? `${ROLE_TITLES[approver.role]}s` : (nameOf(approver.personId) ?? "a named person");
              return (
                <li key={`${approver.kind}-${approver.kind === "role" ? approver.role : approver.personId}`} className="flex items-center gap-1 rounded-full border border-line bg-surface-sunken px-2 py-0.5 text-xs">
                  {name}
                  <button type="button" className="rounded-full px-1 text-muted hover:text-foreground" aria-label={`Remove ${name} from ${label}`} onClick={() => remove(index)}>
                    ×
                  </button>
                </li>
              );
            })}
          </ul>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <select
            aria-label={`Add a role to ${label}`}
            className={`${CONTROL_CLASS} w-auto`}
            value=""
            onChange={(event) => event.target.value && add({ kind: "role", role: event.target.value as Role })}
          >
            <option value="">Add a role…</option>
            {unnamedRoles.map((role) => (
              <option key={role} value={role}>
                {ROLE_TITLES[role]}s
              </option>
            ))}
          </select>
          <select
            aria-label={`Add a person to ${label}`}
            className={`${CONTROL_CLASS} w-auto`}
            value=""
            disabled={unnamedPeople.length === 0}
            onChange={(event) => event.target.value && add({ kind: "person", personId: event.target.value })}
          >
            <option value="">Add a person…</option>
            {unnamedPeople.map((person) => (
              <option key={person.id} value={person.id}>
                {person.displayName}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Field id={`${id}-required`} label="Approvals needed" help={`Different people, 1 to ${MAX_REQUIRED_APPROVALS}; one denial ends it.`}>
        <input
          {...fieldAria(`${id}-required`, { help: true })}
          type="number"
          min={1}
          max={MAX_REQUIRED_APPROVALS}
          className={`${CONTROL_CLASS} w-24`}
          value={value.required}
          onChange={(event) => {
            const required = Math.round(Number(event.target.value));
            if (Number.isFinite(required)) set({ required: Math.min(MAX_REQUIRED_APPROVALS, Math.max(1, required)) });
          }}
        />
      </Field>
      <label className="flex items-start gap-2 text-xs">
        <input type="checkbox" className="mt-0.5" checked={excludesStarter(value)} onChange={(event) => set({ excludeStarter: event.target.checked })} />
        <span>
          Not the person who started the run
          {starterHelp ? <span className="block text-muted">{starterHelp}</span> : null}
        </span>
      </label>
      <DeadlineFields label={label} value={value.deadline} colleagues={colleagues} onChange={(deadline) => set({ deadline })} />
      {value.required === 1 ? (
        <Field id={`${id}-always-days`} label="“Always allow” lasts (days)" help={`For file changes: 1 to ${ALWAYS_ALLOW_MAX_DAYS}; empty: ${ALWAYS_ALLOW_DEFAULT_DAYS}.`}>
          <input
            {...fieldAria(`${id}-always-days`, { help: true })}
            type="number"
            min={1}
            max={ALWAYS_ALLOW_MAX_DAYS}
            placeholder={String(ALWAYS_ALLOW_DEFAULT_DAYS)}
            className={`${CONTROL_CLASS} w-24`}
            value={value.alwaysAllowDays ?? ""}
            onChange={(event) => {
              const days = Math.round(Number(event.target.value));
              set({ alwaysAllowDays: event.target.value.trim() === "" || !Number.isFinite(days) ? undefined : Math.min(ALWAYS_ALLOW_MAX_DAYS, Math.max(1, days)) });
            }}
          />
        </Field>
      ) : (
        <p className="text-xs text-muted">“Always allow” is not offered: it would let later file changes skip the {value.required} people.</p>
      )}
    </fieldset>
  );
}

const DEADLINE_CHOICES: readonly { value: ApprovalDeadline["then"]; label: string }[] = [
  { value: "deny", label: "Deny it" },
  { value: "escalate", label: "Escalate to…" },
  { value: "answer", label: "Answer a question with a default (others are denied)" },
];

/**
 * A box that shows what the person types, even while it is not a valid value
 * yet ("0", ""), and shows the stored value again when it changes from
 * outside (undo, redo, a reset): the draft follows the value, not the other
 * way round. React's "adjust state when a prop changes", without an effect.
 */
function useDraft(stored: number | string | undefined, onText: (text: string) => void): { value: string; onChange: (event: ChangeEvent<HTMLInputElement>) => void } {
  const asText = stored === undefined ? "" : String(stored);
  const [draft, setDraft] = useState(asText);
  const [shown, setShown] = useState(asText);
  if (asText !== shown) {
    setShown(asText);
    setDraft(asText);
  }
  return {
    value: draft,
    onChange: (event) => {
      setDraft(event.target.value);
      onText(event.target.value);
    },
  };
}

/** Minutes as typed, or undefined while the box is empty or not a whole number in range (the save's check names it). */
function minutesOf(text: string): number | undefined {
  const minutes = Number(text);
  return text.trim() !== "" && Number.isInteger(minutes) && minutes >= 1 && minutes <= MAX_DEADLINE_MINUTES ? minutes : undefined;
}

/** A policy's deadline: off, or after N minutes deny / escalate (to whom, for how long) / answer with a default. */
function DeadlineFields({ label, value, colleagues, onChange }: { label: string; value: ApprovalDeadline | undefined; colleagues: readonly Colleague[]; onChange: (value: ApprovalDeadline | undefined) => void }) {
  const id = useId();
  const set = (patch: Partial<ApprovalDeadline>) => onChange({ ...(value ?? { minutes: 60, then: "deny" }), ...patch });
  const escalateTo = value?.escalateTo ?? [];
  const nameOf = (personId: string) => colleagues.find((person) => person.id === personId)?.displayName;
  const minutesDraft = useDraft(value?.minutes, (text) => {
    const minutes = minutesOf(text);
    if (minutes !== undefined) set({ minutes });
  });
  const escalateDraft = useDraft(value?.escalateMinutes, (text) => set({ escalateMinutes: minutesOf(text) }));
  const answerDraft = useDraft(value?.answer, (text) => set({ answer: text.trim() || undefined }));
  return (
    <div className="space-y-2 text-xs">
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={value !== undefined} onChange={(event) => onChange(event.target.checked ? { minutes: 60, then: "deny" } : undefined)} aria-label={`A deadline for ${label}`} />
        <span>A deadline</span>
      </label>
      {value ? (
        <div className="space-y-2 border-l-2 border-line pl-3">
          <Field id={`${id}-minutes`} label="Minutes to decide" help={`1 to ${MAX_DEADLINE_MINUTES.toLocaleString("en-US")} (a year).`}>
            <input
              {...fieldAria(`${id}-minutes`, { help: true })}
              type="number"
              min={1}
              max={MAX_DEADLINE_MINUTES}
              className={`${CONTROL_CLASS} w-28`}
              {...minutesDraft}
            />
          </Field>
          <Field id={`${id}-then`} label="Then">
            <select {...fieldAria(`${id}-then`, {})} className={CONTROL_CLASS} value={value.then} onChange={(event) => set({ then: event.target.value as ApprovalDeadline["then"] })}>
              {DEADLINE_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </Field>
          {value.then === "escalate" ? (
            <>
              <p className="text-muted">To: {escalateTo.length === 0 ? "nobody yet" : describeApprovers(escalateTo, nameOf)}</p>
              <select
                aria-label={`Escalate ${label} to`}
                className={`${CONTROL_CLASS} w-auto`}
                value=""
                onChange={(event) => {
                  const [kind, key] = event.target.value.split(":", 2) as [string, string];
                  if (!key) return;
                  set({ escalateTo: [...escalateTo, kind === "role" ? { kind: "role", role: key as Role } : { kind: "person", personId: key }] });
                }}
              >
                <option value="">Add…</option>
                {ROLES.map((role) => (
                  <option key={role} value={`role:${role}`}>
                    {ROLE_TITLES[role]}s
                  </option>
                ))}
                {colleagues.map((person) => (
                  <option key={person.id} value={`person:${person.id}`}>
                    {person.displayName}
                  </option>
                ))}
              </select>
              <Field id={`${id}-escalate-minutes`} label="Minutes they have, then it is denied">
                <input
                  {...fieldAria(`${id}-escalate-minutes`, {})}
                  type="number"
                  min={1}
                  max={MAX_DEADLINE_MINUTES}
                  className={`${CONTROL_CLASS} w-28`}
                  {...escalateDraft}
                />
              </Field>
            </>
          ) : null}
          {value.then === "answer" ? (
            <Field id={`${id}-answer`} label="The default answer" help="Taken by a question (ask_user) nobody answered in time; anything else is denied.">
              <input {...fieldAria(`${id}-answer`, { help: true })} className={CONTROL_CLASS} maxLength={10_000} {...answerDraft} />
            </Field>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
