"use client";

import { memo, useDeferredValue, useId, useMemo, useState, type DragEvent } from "react";
import { domainInfo, domainRank } from "@/components/tool-domains";
import { ToolIcon } from "@/components/tool-icon";
import { CONTROL_CLASS } from "@/components/ui/field";
import type { PaletteItem } from "@/lib/editor/definition-edits";
import { searchCatalog, type ToolMatch } from "@/lib/editor/palette-search";
import type { CatalogTool } from "@/lib/contracts/catalog";
import { paletteBlocks, type NodeKind } from "@/nodes/definitions";

/** The drag payload's type: what a palette item carries onto the canvas. */
export const PALETTE_MIME = "application/x-neurosurfer-palette";

interface NodePaletteProps {
  tools: readonly CatalogTool[];
  /** Kinds the workflow holds its one node of already (run inputs): their blocks are greyed out. */
  kindsAtLimit: readonly NodeKind[];
  onAdd: (item: PaletteItem) => void;
  /** The line under the list: what pressing an entry does here. */
  hint?: string;
}

function startDrag(event: DragEvent, item: PaletteItem) {
  event.dataTransfer.setData(PALETTE_MIME, JSON.stringify(item));
  event.dataTransfer.effectAllowed = "copy";
}

/** Each node kind's palette entry (nodes/<kind>/definition.ts), by group; tools are listed from the catalog below them. */
const BLOCK_GROUPS = [
  { id: "blocks", title: "Building blocks", blocks: paletteBlocks().filter((entry) => (entry.block.group ?? "blocks") === "blocks") },
  { id: "triggers", title: "Triggers", blocks: paletteBlocks().filter((entry) => entry.block.group === "triggers") },
].filter((group) => group.blocks.length > 0);

const ITEM_CLASS =
  "flex w-full cursor-grab items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm text-foreground hover:bg-surface-sunken active:cursor-grabbing disabled:cursor-not-allowed disabled:opacity-50";

/**
 * Building blocks and tools to drag onto the canvas (or click to add at the
 * centre of the view), grouped by domain, with a search that also understands
 * what a tool can do ("write a file").
 */
export const NodePalette = memo(function NodePalette({ tools, kindsAtLimit, onAdd, hint }: NodePaletteProps) {
  const searchId = useId();
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const groups = useMemo(() => {
    const byDomain = new Map<string, ToolMatch[]>();
    for (const match of searchCatalog(tools, deferredQuery)) {
      const list = byDomain.get(match.tool.domain) ?? [];
      list.push(match);
      byDomain.set(match.tool.domain, list);
    }
    return [...byDomain.entries()]
      .map(([domain, matches]) => ({ info: domainInfo(domain), matches: matches.sort((a, b) => a.tool.title.localeCompare(b.tool.title)) }))
      .sort((a, b) => domainRank(a.info.domain) - domainRank(b.info.domain) || a.info.title.localeCompare(b.info.title));
  }, [tools, deferredQuery]);
  const searching = deferredQuery.trim() !== "";

  return (
    <nav aria-label="Node palette" className="flex h-full flex-col">
      <div className="border-b border-line p-3">
        <label htmlFor={searchId} className="mb-1.5 block text-xs font-medium text-muted">
          Search tools
        </label>
        <input
          id={searchId}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="e.g. write a file"
          className={`${CONTROL_CLASS} py-1.5`}
          autoComplete="off"
        />
      </div>
      <div className="flex-1 space-y-4 overflow-y-auto p-3">
        {searching
          ? null
          : BLOCK_GROUPS.map((group) => (
              <section key={group.id} aria-labelledby={`${searchId}-${group.id}`}>
                <h2 id={`${searchId}-${group.id}`} className="mb-1 px-2 text-[0.6875rem] font-semibold uppercase tracking-wide text-muted">
                  {group.title}
                </h2>
                <ul>
                  {group.blocks.map(({ kind, item, title, icon, block }) => {
                    const atLimit = kindsAtLimit.includes(kind);
                    return (
                      <BlockItem
                        key={kind}
                        item={item}
                        icon={icon}
                        title={title}
                        help={atLimit ? (block.takenHelp ?? block.help) : block.help}
                        disabled={atLimit}
                        onAdd={onAdd}
                      />
                    );
                  })}
                </ul>
              </section>
            ))}
        {groups.length === 0 ? (
          <p role="status" className="px-2 text-sm text-muted">
            No tool matches “{deferredQuery.trim()}”. Try what it should do, such as “read a file” or “query a database”.
          </p>
        ) : (
          groups.map(({ info, matches }) => (
            <section key={info.domain} aria-labelledby={`${searchId}-${info.domain}`}>
              <h2
                id={`${searchId}-${info.domain}`}
                className="mb-1 flex items-center gap-1.5 px-2 text-[0.6875rem] font-semibold uppercase tracking-wide text-muted"
              >
                <ToolIcon domain={info.domain} className="size-3.5" />
                {info.title}
              </h2>
              <ul>
                {matches.map((match) => (
                  <ToolItem key={match.tool.name} match={match} onAdd={onAdd} />
                ))}
              </ul>
            </section>
          ))
        )}
      </div>
      {/* Said for the pointer in hand: a touch screen has no Enter key and drags pan the canvas. */}
      <p className="border-t border-line px-3 py-2 text-xs text-muted">
        {hint ?? (
          <>
            <span className="pointer-coarse:hidden">Drag onto the canvas, or press Enter to add at the centre.</span>
            <span className="hidden pointer-coarse:inline">Tap a node to add it in the middle of the canvas.</span>
          </>
        )}
      </p>
    </nav>
  );
});

interface BlockItemProps {
  item: PaletteItem;
  icon: string;
  title: string;
  help: string;
  disabled?: boolean;
  onAdd: (item: PaletteItem) => void;
}

function BlockItem({ item, icon, title, help, disabled = false, onAdd }: BlockItemProps) {
  return (
    <li>
      <button
        type="button"
        className={ITEM_CLASS}
        draggable={!disabled}
        disabled={disabled}
        onDragStart={(event) => startDrag(event, item)}
        onClick={() => onAdd(item)}
      >
        <span className="flex size-6 shrink-0 items-center justify-center rounded bg-surface-sunken text-muted">
          <ToolIcon icon={icon} className="size-3.5" />
        </span>
        <span className="min-w-0">
          <span className="block font-medium">{title}</span>
          {/* Cut to one line in the narrow side column; in full in the drawer, where a cut line could not be hovered to read. */}
          <span className="block text-xs text-muted lg:truncate">{help}</span>
        </span>
      </button>
    </li>
  );
}

const ToolItem = memo(function ToolItem({ match, onAdd }: { match: ToolMatch; onAdd: (item: PaletteItem) => void }) {
  const { tool, operations, viaCapabilities } = match;
  const toolItem: PaletteItem = { kind: "tool", tool: tool.name };
  return (
    <li>
      <button
        type="button"
        className={ITEM_CLASS}
        draggable
        onDragStart={(event) => startDrag(event, toolItem)}
        onClick={() => onAdd(toolItem)}
        title={tool.description}
      >
        <span className="flex size-6 shrink-0 items-center justify-center rounded bg-accent-soft text-accent">
          <ToolIcon icon={tool.icon} domain={tool.domain} className="size-3.5" />
        </span>
        <span className="min-w-0">
          <span className="block truncate font-medium">{tool.title}</span>
          {viaCapabilities.length > 0 ? (
            <span className="block truncate text-xs text-accent">provides {viaCapabilities.join(", ")}</span>
          ) : null}
        </span>
      </button>
      {operations.length > 0 ? (
        <ul className="mb-1 ml-5 border-l border-line pl-2">
          {operations.map((operation) => {
            const operationItem: PaletteItem = { kind: "tool", tool: tool.name, operation: operation.name };
            return (
              <li key={operation.name}>
                <button
                  type="button"
                  className={`${ITEM_CLASS} py-1 text-xs text-muted hover:text-foreground`}
                  draggable
                  onDragStart={(event) => startDrag(event, operationItem)}
                  onClick={() => onAdd(operationItem)}
                  title={operation.description}
                  aria-label={`${tool.title}: ${operation.title}`}
                >
                  {operation.title}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </li>
  );
});
