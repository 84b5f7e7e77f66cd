import { describe, expect, it } from "vitest";
import { catalogEntry } from "@/lib/server/tool-catalog";
import { allTools } from "@/lib/tools";
import { WorkflowDefinitionSchema, type WorkflowDefinition } from "@/lib/workflow/definition";
import { draftToDefinition } from "./draft-definition";
import type { Draft } from "./draft-schema";
import { proposalPreview, proposedEdgeId } from "@/lib/editor/proposal-preview";
import { acceptProposal, everyChange, proposalOf } from "./proposal";

const tools = allTools().map(catalogEntry);

/** The person's workflow: inputs → list the folder (root chosen) → output, moved about on the canvas. */
const current: WorkflowDefinition = WorkflowDefinitionSchema.parse({
  name: "Folder report",
  guardrails: { maxTurns: 7 },
  nodes: [
    { id: "in", kind: "input", fields: [], position: { x: -300, y: 40 } },
    { id: "list", kind: "tool", tool: "list_dir", settings: { root: "/srv/reports" }, arguments: { path: "." }, position: { x: 10, y: 40 } },
    { id: "out", kind: "output", value: "{{ nodes.list.output }}", position: { x: 400, y: 40 } },
  ],
  edges: [
    { id: "a", source: "in", target: "list" },
    { id: "b", source: "list", target: "out" },
  ],
});

/** The draft: keeps inputs and the listing (its path changed), adds a write step, drops the output. */
const draft: Draft = {
  name: "Folder report, written down",
  description: "",
  mode: "default",
  declined: [],
  plan: [
    { step: "List the folder", reason: "Only its top level.", nodeIds: ["list"] },
    { step: "Write the listing to a file", reason: "The goal asks for a file.", capability: "file.write", nodeIds: ["save"] },
  ],
  nodes: [
    { id: "in", kind: "input", fields: [] },
    { id: "list", kind: "tool", tool: "list_dir", operation: null, arguments: { path: "reports" } },
    { id: "save", kind: "tool", tool: "write_file", operation: null, arguments: { path: "listing.txt", content: "{{ nodes.list.output }}" } },
  ],
  edges: [
    { from: "in", to: "list" },
    { from: "list", to: "save" },
  ],
};

describe("a draft as a change to the workflow on the canvas", () => {
  const proposed = draftToDefinition(draft, tools, current);

  it("keeps what the person decided: the settings and places of the nodes it keeps, the workflow's guardrails", () => {
    const list = proposed.nodes.find((node) => node.id === "list") as { settings: unknown; position: unknown };
    expect(list.settings).toEqual({ root: "/srv/reports" });
    expect(list.position).toEqual({ x: 10, y: 40 });
    expect(proposed.guardrails).toEqual(current.guardrails);
    // The new step is laid out below what is there, its settings left empty for the person.
    const save = proposed.nodes.find((node) => node.id === "save") as { settings: unknown; position: { y: number } };
    expect(save.settings).toEqual({});
    expect(save.position.y).toBeGreaterThan(40);
  });

  it("lists each node and edge added, changed or removed, with the plan's reason", () => {
    const proposal = proposalOf(current, proposed, draft.plan);
    expect(proposal.nodes).toEqual([
      { key: "node:list", nodeId: "list", change: "changed", step: "List the folder", reason: "Only its top level." },
      { key: "node:save", nodeId: "save", change: "added", step: "Write the listing to a file", reason: "The goal asks for a file." },
      { key: "node:out", nodeId: "out", change: "removed", step: null, reason: null },
    ]);
    expect(proposal.edges.map((edge) => `${edge.change} ${edge.key}`)).toEqual(["added edge:list->save", "removed edge:list->out"]);
    expect(proposal.workflow).toEqual([{ field: "name", from: "Folder report", to: "Folder report, written down" }]);
  });

  it("does not call a kept step changed because its fields come in another order", () => {
    const same: Draft = { ...draft, nodes: [draft.nodes[0]!, { id: "list", kind: "tool", tool: "list_dir", operation: null, arguments: { path: "." } }, draft.nodes[2]!] };
    const proposal = proposalOf(current, draftToDefinition(same, tools, current), same.plan);
    expect(proposal.nodes.map((change) => `${change.change} ${change.nodeId}`)).toEqual(["added save", "removed out"]);
  });

  it("accepts all, some or none", () => {
    const proposal = proposalOf(current, proposed, draft.plan);
    const all = acceptProposal(current, proposed, proposal, everyChange(proposal));
    expect(all.nodes.map((node) => node.id)).toEqual(["in", "list", "save"]);
    expect(all.edges.map((edge) => `${edge.source}->${edge.target}`)).toEqual(["in->list", "list->save"]);
    expect(all.name).toBe("Folder report, written down");
    expect(WorkflowDefinitionSchema.safeParse(all).success).toBe(true);

    // Only the new step: the listing keeps its path, the output stays, and the new edge comes with its node.
    const some = acceptProposal(current, proposed, proposal, new Set(["node:save", "edge:list->save"]));
    expect(some.nodes.map((node) => node.id)).toEqual(["in", "list", "out", "save"]);
    expect((some.nodes[1] as { arguments: unknown }).arguments).toEqual({ path: "." });
    expect(some.edges.map((edge) => `${edge.source}->${edge.target}`)).toEqual(["in->list", "list->out", "list->save"]);
    expect(some.name).toBe("Folder report");

    // An edge accepted without its new node is left out, not dangling.
    expect(acceptProposal(current, proposed, proposal, new Set(["edge:list->save"])).edges.map((edge) => edge.target)).toEqual(["list", "out"]);
    expect(acceptProposal(current, proposed, proposal, new Set())).toEqual(current);
  });
});

describe("the canvas while the proposal is reviewed", () => {
  const proposed = draftToDefinition(draft, tools, current);
  const proposal = proposalOf(current, proposed, draft.plan);

  it("draws every change, marked, with the ticked ones as they would be and the unticked ones still there", () => {
    const ticked = new Set(["node:save", "edge:list->save", "node:out"]);
    const preview = proposalPreview(current, proposed, proposal, ticked, [
      { path: "settings.root", nodeId: "save", message: "choose a folder", for: "person" },
      { path: "name", nodeId: null, message: "not on a node", for: "model" },
    ]);
    expect(preview.nodes.map((node) => node.id)).toEqual(["in", "list", "out", "save"]);
    // The listing's change is not ticked: it shows as it is now.
    expect((preview.nodes[1] as { arguments: unknown }).arguments).toEqual({ path: "." });
    expect(Object.fromEntries(preview.nodeMarks)).toEqual({
      list: { change: "changed", accepted: false },
      save: { change: "added", accepted: true },
      out: { change: "removed", accepted: true },
    });
    expect(preview.edges.map((edge) => edge.id)).toEqual(["a", "b", proposedEdgeId("edge:list->save")]);
    expect(Object.fromEntries(preview.edgeMarks)).toEqual({ b: { change: "removed", accepted: false }, [proposedEdgeId("edge:list->save")]: { change: "added", accepted: true } });
    expect(preview.problems.get("save")).toEqual([{ nodeId: "save", field: "settings.root", message: "choose a folder", severity: "error" }]);
    expect(preview.problems.size).toBe(1);

    const changed = proposalPreview(current, proposed, proposal, new Set(["node:list"]));
    expect((changed.nodes[1] as { arguments: unknown; position: unknown }).arguments).toEqual({ path: "reports" });
    expect(changed.nodes[1]!.position).toEqual(current.nodes[1]!.position);
  });
});
