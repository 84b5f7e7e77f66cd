"use client";

import { Dialog } from "@/components/ui/dialog";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { PaletteItem } from "@/lib/editor/definition-edits";
import type { NodeKind } from "@/nodes/definitions";
import { NodePalette } from "./node-palette";

interface InsertStepDialogProps {
  /** The edge's name ("Connection from Read file to Write file"), or null while closed. */
  edgeName: string | null;
  tools: readonly CatalogTool[];
  kindsAtLimit: readonly NodeKind[];
  /** Why the last step picked could not go in. */
  problem: string | null;
  onPick: (item: PaletteItem) => void;
  onClose: () => void;
}

/** The step picker an edge's + opens: the palette's own list and search, each entry putting its step into the edge. */
export function InsertStepDialog({ edgeName, tools, kindsAtLimit, problem, onPick, onClose }: InsertStepDialogProps) {
  return (
    <Dialog
      open={edgeName !== null}
      onClose={onClose}
      title="Insert a step"
      description={edgeName ? `Into the ${edgeName.charAt(0).toLowerCase()}${edgeName.slice(1)}.` : undefined}
    >
      {problem ? (
        <p role="alert" className="mb-3 rounded-md bg-caution-soft px-3 py-2 text-sm text-caution">
          {problem}
        </p>
      ) : null}
      <div className="-mx-3 h-[min(28rem,60dvh)]">
        <NodePalette tools={tools} kindsAtLimit={kindsAtLimit} onAdd={onPick} hint="Press Enter or click a step to put it between the two cards." />
      </div>
    </Dialog>
  );
}
