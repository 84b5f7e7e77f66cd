import { Button } from "@/components/ui/button";
import { PanelSection } from "./panel-section";

/** Agent nodes are reserved for a later version: say so, and offer to remove the node. */
export function AgentPanel({ onDelete }: { onDelete: () => void }) {
  return (
    <PanelSection title="Agent">
      <p className="text-sm text-muted">
        Agent nodes are not available yet in this version of the studio, so this workflow cannot run while it has one. Remove it, or replace it with tool
        steps.
      </p>
      <Button variant="danger" size="sm" onClick={onDelete}>
        Delete this node
      </Button>
    </PanelSection>
  );
}
