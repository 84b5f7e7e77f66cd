"use client";

import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { EMPTY_SAMPLE_SCOPE, referenceGroups, type ReferenceGroup } from "@/lib/editor/field-mapping";
import type { SampleField } from "@/lib/editor/sample-paths";
import type { ReferenceOption } from "@/lib/schema-form/references";
import { useSamples } from "../samples";

interface ReferencePickerProps {
  id: string;
  options: readonly ReferenceOption[];
  onPick: (template: string) => void;
  /** What the picker is for, read by screen readers: "Use a value from… for Path". */
  purpose?: string;
}

/** One visible row of the tree: a group (run inputs, an upstream node) or a field of its sample. */
interface Row {
  key: string;
  level: number;
  parentKey: string | null;
  group: ReferenceGroup;
  field: SampleField | null;
  hasChildren: boolean;
  setSize: number;
  position: number;
}

/**
 * "Use a value from…": the run inputs and each upstream node, with the fields
 * of its sample (its pin, else its last run output) as a tree: nested objects,
 * arrays by index, each with its type and value. Choosing a field inserts its
 * `{{ … }}` template. A WAI-ARIA tree: arrow keys move and open, Enter picks,
 * Escape closes.
 */
export function ReferencePicker({ id, options, onPick, purpose }: ReferencePickerProps) {
  const samples = useSamples();
  const [open, setOpen] = useState(false);
  const groups = useMemo(() => referenceGroups(options, samples?.scope ?? EMPTY_SAMPLE_SCOPE), [options, samples?.scope]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [active, setActive] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const tree = useRef<HTMLUListElement>(null);
  const empty = options.length === 0;
  const treeId = `${id}-tree`;

  const rows = useMemo(() => visibleRows(groups, expanded), [groups, expanded]);
  const activeRow = rows.find((row) => row.key === active) ?? rows[0] ?? null;

  useEffect(() => {
    if (!open || !activeRow) return;
    document.getElementById(rowId(treeId, activeRow.key))?.focus();
  }, [open, activeRow, treeId]);

  const openPicker = () => {
    samples?.reload();
    // Every group open, and each node's data one level down: the first fields are in sight at once.
    setExpanded(new Set(groups.flatMap((group) => [`group:${group.id}`, ...group.fields.filter((field) => field.label === "data").map((field) => field.expression)])));
    setActive(null);
    setOpen(true);
  };
  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };
  const pick = (field: SampleField) => {
    close(false);
    onPick(`{{ ${field.expression} }}`);
  };
  const toggle = (key: string, to?: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (to ?? !next.has(key)) next.add(key);
      else next.delete(key);
      return next;
    });

  const onKeyDown = (event: KeyboardEvent) => {
    if (!activeRow) return;
    const index = rows.indexOf(activeRow);
    const move = (row: Row | undefined) => row && setActive(row.key);
    const isOpen = expanded.has(activeRow.key);
    switch (event.key) {
      case "ArrowDown":
        move(rows[index + 1]);
        break;
      case "ArrowUp":
        move(rows[index - 1]);
        break;
      case "Home":
        move(rows[0]);
        break;
      case "End":
        move(rows.at(-1));
        break;
      case "ArrowRight":
        if (activeRow.hasChildren && !isOpen) toggle(activeRow.key, true);
        else if (activeRow.hasChildren) move(rows[index + 1]);
        break;
      case "ArrowLeft":
        if (activeRow.hasChildren && isOpen) toggle(activeRow.key, false);
        else move(rows.find((row) => row.key === activeRow.parentKey));
        break;
      case "Enter":
      case " ":
        if (activeRow.field) pick(activeRow.field);
        else toggle(activeRow.key);
        break;
      case "Escape":
        close(true);
        break;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <div
      className="space-y-1"
      onBlur={(event) => {
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        id={id}
        type="button"
        disabled={empty}
        aria-expanded={open}
        aria-controls={open ? treeId : undefined}
        aria-label={purpose ? `Use a value from… for ${purpose}` : "Use a value from…"}
        title={empty ? "Connect this node after the input node or another step to use their values." : undefined}
        onClick={() => (open ? close(false) : openPicker())}
        className="inline-flex min-h-7 items-center gap-1 rounded-md border border-line bg-surface px-2 text-xs text-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none disabled:opacity-60"
      >
        {empty ? "No inputs or upstream steps yet" : "Use a value from…"}
        <span aria-hidden="true">{open ? "▴" : "▾"}</span>
      </button>
      {open ? (
        <ul
          ref={tree}
          id={treeId}
          role="tree"
          aria-label={purpose ? `Values for ${purpose}` : "Values"}
          onKeyDown={onKeyDown}
          className="max-h-72 overflow-auto rounded-md border border-line bg-surface py-1 text-xs"
        >
          {rows.map((row) => (
            <TreeRow
              key={row.key}
              id={rowId(treeId, row.key)}
              row={row}
              active={row.key === activeRow?.key}
              expanded={row.hasChildren ? expanded.has(row.key) : undefined}
              onActivate={() => {
                setActive(row.key);
                if (row.field) pick(row.field);
                else toggle(row.key);
              }}
              onToggle={() => toggle(row.key)}
            />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

interface TreeRowProps {
  id: string;
  row: Row;
  active: boolean;
  expanded: boolean | undefined;
  onActivate: () => void;
  onToggle: () => void;
}

function TreeRow({ id, row, active, expanded, onActivate, onToggle }: TreeRowProps) {
  const { field, group } = row;
  return (
    <li
      id={id}
      role="treeitem"
      aria-level={row.level}
      aria-setsize={row.setSize}
      aria-posinset={row.position}
      aria-expanded={expanded}
      aria-selected={active}
      tabIndex={active ? 0 : -1}
      onClick={(event) => {
        event.stopPropagation();
        onActivate();
      }}
      style={{ paddingInlineStart: `${0.5 + (row.level - 1) * 0.9}rem` }}
      className={`flex cursor-pointer items-baseline gap-1.5 py-1 pr-2 outline-none hover:bg-background focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-accent ${active ? "bg-accent-soft" : ""}`}
    >
      {row.hasChildren ? (
        <span
          aria-hidden="true"
          className="w-3 shrink-0 text-muted"
          onClick={(event) => {
            event.stopPropagation();
            onToggle();
          }}
        >
          {expanded ? "▾" : "▸"}
        </span>
      ) : (
        <span aria-hidden="true" className="w-3 shrink-0" />
      )}
      {field ? (
        <>
          <span className="font-mono text-foreground">{field.label}</span>
          {field.preview !== "" ? <span className="shrink-0 rounded bg-background px-1 text-[10px] text-muted">{field.type}</span> : null}
          <span className="min-w-0 truncate font-mono text-muted">{field.preview}</span>
          {field.leftOut > 0 ? <span className="shrink-0 text-muted">(+{field.leftOut} not listed)</span> : null}
        </>
      ) : (
        <>
          <span className="font-medium text-foreground">{group.label}</span>
          <span className="min-w-0 truncate text-muted">{group.source ?? group.missing}</span>
        </>
      )}
    </li>
  );
}

function rowId(treeId: string, key: string): string {
  return `${treeId}-${key.replace(/[^A-Za-z0-9_-]/g, (character) => `_${character.charCodeAt(0)}`)}`;
}

/** The rows a person sees: each group, and the fields under every open group or field. */
function visibleRows(groups: readonly ReferenceGroup[], expanded: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  const addFields = (group: ReferenceGroup, fields: readonly SampleField[], level: number, parentKey: string) => {
    fields.forEach((field, index) => {
      rows.push({ key: field.expression, level, parentKey, group, field, hasChildren: field.children.length > 0, setSize: fields.length, position: index + 1 });
      if (expanded.has(field.expression)) addFields(group, field.children, level + 1, field.expression);
    });
  };
  groups.forEach((group, index) => {
    const key = `group:${group.id}`;
    rows.push({ key, level: 1, parentKey: null, group, field: null, hasChildren: group.fields.length > 0, setSize: groups.length, position: index + 1 });
    if (expanded.has(key)) addFields(group, group.fields, 2, key);
  });
  return rows;
}
