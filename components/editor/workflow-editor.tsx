"use client";

import { loopLabels } from "@/lib/workflow/loop-body";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { edgeLabel } from "@/lib/editor/connection-choices";
import { CARD_HEIGHT, CARD_WIDTH, clearOfOtherCards, type Point } from "@/lib/editor/auto-layout";
import { addNode, createNode, type PaletteItem } from "@/lib/editor/definition-edits";
import {
  createFlowEdgeMapper,
  createFlowNodeMapper,
  type FlowEdge,
  type FlowNode,
} from "@/lib/editor/to-flow";
import type { CatalogTool } from "@/lib/contracts/catalog";
import type { NodeChoice } from "@/lib/editor/node-search";
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import { kindsAtLimit, startsRunsOf, type NodeKind } from "@/nodes/definitions";
import { EditorCanvas } from "./editor-canvas";
import { DrawerToggle, SidePanel, useEditorDrawers } from "./editor-drawers";
import { EditorToolbar } from "./editor-toolbar";
import { ShareDialog } from "./share-dialog";
import { GoToNodeDialog } from "./go-to-node-dialog";
import { InspectorPanel, preloadNodeInspector } from "./inspector-panel";
import { LeaveGuard } from "./leave-guard";
import { NodePalette } from "./node-palette";
import { RunDialog } from "./run-dialog";
import { SaveProblemDialog } from "./save-problem-dialog";
import { useEditorDocument } from "./use-editor-document";
import { useValidation } from "./use-validation";
import { VersionsDialog } from "./versions-dialog";
import { WebhookListeningProvider } from "./webhook-listening";
import { TestRunsProvider, useWorkflowPins } from "./test-runs";
import { SamplesProvider } from "./samples";
import { inputFieldsOf } from "@/lib/workflow/run-inputs";
import { NodeMenu, type NodeMenuTarget } from "./node-menu";
import { InsertStepDialog } from "./insert-step-dialog";
import { useEdgeInsertion } from "./use-edge-insertion";
import { useCanvasChanges } from "./use-canvas-changes";
import { useCanvasView } from "./use-canvas-view";
import { useCardNames } from "./use-card-names";
import { useEditorShortcuts } from "./use-editor-shortcuts";
import { useInspectorEdits } from "./use-inspector-edits";
import { useWorkflowSaving } from "./use-workflow-saving";
import { ReadOnlyContext } from "./read-only-context";
import { LiveRegion, useAnnouncer } from "@/components/ui/announcer";
import { nodeAddedText } from "@/lib/editor/announcements";
import { problemCounts } from "@/lib/editor/workflow-status";
import { ArchitectPanel } from "./architect/architect-panel";
import { useEditorArchitect, useFitToProposal } from "./architect/use-editor-architect";

interface WorkflowEditorProps {
  workflowId: string;
  version: number;
  /** The version its triggers start; null while unpublished. */
  publishedVersion: number | null;
  definition: WorkflowDefinition;
  tools: CatalogTool[];
  /** What the person may do on it (their scopes on the workflow); everything but sharing when left out. */
  access?: EditorAccess;
}

/** What the editor offers, from the person's scopes on the workflow: the server checks each again. */
export interface EditorAccess {
  /** Change it (workflow:edit): without it the editor shows the workflow read-only. */
  edit: boolean;
  /** Start runs of it (workflow:run). */
  run: boolean;
  /** Publish and unpublish it (workflow:publish); left out, as editing allows. */
  publish?: boolean;
  /** Change who else sees it: it is theirs, or they are an owner or admin of the studio. */
  share: boolean;
}

const FULL_ACCESS: EditorAccess = { edit: true, run: true, share: false };
const ignoreChange = () => {};

const NONE: ReadonlySet<string> = new Set();
/** Above this many nodes the minimap is left out: it would draw every node a second time. */
const MINIMAP_LIMIT = 500;

/** The workflow editor: palette, canvas and inspector around one workflow definition. */
export function WorkflowEditor(props: WorkflowEditorProps) {
  return (
    <ReactFlowProvider>
      <EditorShell {...props} />
    </ReactFlowProvider>
  );
}

function EditorShell({ workflowId, version: loadedVersion, publishedVersion: loadedPublishedVersion, definition: loadedDefinition, tools, access = FULL_ACCESS }: WorkflowEditorProps) {
  const document = useEditorDocument(loadedDefinition, loadedVersion);
  const { definition, version, dirty, settle, markSaved, reset } = document;
  // Read-only (no workflow:edit): nothing the page does changes the definition, whatever control is reached.
  const readOnly = !access.edit;
  const commit = readOnly ? ignoreChange : document.commit;
  const previewChange = readOnly ? ignoreChange : document.preview;
  const undo = readOnly ? ignoreChange : document.undo;
  const redo = readOnly ? ignoreChange : document.redo;
  const validation = useValidation(definition, workflowId, !readOnly);
  const drawers = useEditorDrawers();
  const { closeAfterUse, openForUse } = drawers;
  // Where the inspector is a drawer (a phone): a card tapped or Enter pressed on it opens its settings, and so does Describe….
  const openInspectorDrawer = useCallback(() => openForUse("inspector"), [openForUse]);
  // "Describe what it should do": while its proposal is reviewed the canvas shows `shown`, marked, closed to edits.
  const architectPanel = useEditorArchitect({ definition, commit, openDrawer: openInspectorDrawer });
  const { architect, preview, shown, reviewing } = architectPanel;
  const { screenToFlowPosition } = useReactFlow<FlowNode, FlowEdge>();
  const canvasRef = useRef<HTMLDivElement>(null);

  const toolsByName = useMemo(() => new Map(tools.map((tool) => [tool.name, tool])), [tools]);
  const [notice, setNotice] = useState<string | null>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [runOpen, setRunOpen] = useState(false);
  const [startingRun, setStartingRun] = useState(false);
  const [goToOpen, setGoToOpen] = useState(false);
  const [menu, setMenu] = useState<NodeMenuTarget | null>(null);
  // Cards added and connections made move no focus: a screen reader hears of them here.
  const { announce, message: announcement } = useAnnouncer();

  // Mappers keep the previous React Flow objects for unchanged nodes, so one change re-renders one card.
  // Sizes React Flow measures are noted in the mapper, not in state, so a card scrolling into view re-renders nothing.
  const [nodeMapper] = useState(createFlowNodeMapper);
  const [mapEdges] = useState(createFlowEdgeMapper);
  // What the canvas changes: moves, selection, connections, deletions.
  const { selectedNodes, selectedEdges, select, connect, deleteElements, canvasHandlers } = useCanvasChanges({
    definition,
    tools: toolsByName,
    commit,
    preview: previewChange,
    settle,
    nodeMapper,
    announce,
    notify: setNotice,
  });

  const workflowPins = useWorkflowPins(workflowId);
  // A set that changes only when the pins do: the mapper compares each card's mark.
  const pinned = useMemo(() => new Set(workflowPins.pins.keys()), [workflowPins.pins]);
  // Each loop body's node names its loop on its card (compared by label, so a drag re-renders nothing more).
  const loops = useMemo(() => loopLabels(definition), [definition]);
  const flowNodes = useMemo(
    () =>
      nodeMapper.map(shown.nodes, {
        tools: toolsByName,
        problems: preview ? preview.problems : validation.byNode,
        selected: selectedNodes,
        pinned,
        loops,
        proposal: preview?.nodeMarks,
      }),
    [nodeMapper, shown.nodes, toolsByName, preview, validation.byNode, selectedNodes, pinned, loops],
  );

  // Once the canvas is drawn and the browser has nothing else to do, the node inspector's code comes in.
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => preloadNodeInspector());
    return () => cancel(handle);
  }, []);

  useEffect(() => {
    if (notice === null) return;
    const timer = window.setTimeout(() => setNotice(null), 4000);
    return () => window.clearTimeout(timer);
  }, [notice]);

  // ---- adding nodes ---------------------------------------------------------
  const addItemAt = useCallback(
    (item: PaletteItem, position: Point) => {
      const node = createNode(item, position, definition, toolsByName);
      if (!node) {
        setNotice(item.kind === "input" ? "A workflow has one Run inputs node at most." : "That tool is not available in this studio.");
        return;
      }
      commit((current) => addNode(current, node));
      select(new Set([node.id]));
      announce(nodeAddedText(node, toolsByName));
    },
    [definition, toolsByName, commit, select, announce],
  );

  const addAtCentre = useCallback(
    (item: PaletteItem) => {
      const rect = canvasRef.current?.getBoundingClientRect();
      if (!rect) return;
      const centre = screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
      // Clicking twice should not stack two cards exactly on top of each other.
      addItemAt(item, clearOfOtherCards({ x: centre.x - CARD_WIDTH / 2, y: centre.y - CARD_HEIGHT / 2 }, definition.nodes));
      // On a small screen the palette covers the canvas: shut it to show the card just added.
      closeAfterUse("palette");
    },
    [screenToFlowPosition, definition.nodes, addItemAt, closeAfterUse],
  );

  const selectOne = useCallback((nodeId: string) => select(new Set([nodeId])), [select]);
  const edgeInsertion = useEdgeInsertion({ definition, tools: toolsByName, sizes: nodeMapper.sizes, commit, selectNode: selectOne });
  const { insert: insertOnEdge } = edgeInsertion;
  const onDropItem = useCallback(
    (item: PaletteItem, point: { x: number; y: number }, edgeId: string | null) => {
      // Dropped on an edge, the step goes into it (as n8n does); the reason it cannot shows like a refused connection.
      if (edgeId !== null) {
        const refused = insertOnEdge(edgeId, item);
        if (refused !== null) setNotice(refused);
        return;
      }
      const at = screenToFlowPosition(point);
      addItemAt(item, { x: at.x - CARD_WIDTH / 2, y: at.y - 24 });
    },
    [screenToFlowPosition, addItemAt, insertOnEdge],
  );

  const openNodeMenu = useCallback(
    (nodeId: string, point: { x: number; y: number }) => {
      const rect = canvasRef.current?.getBoundingClientRect();
      const node = definition.nodes.find((each) => each.id === nodeId);
      if (!rect || !node) return;
      const title = flowNodes.find((each) => each.id === nodeId)?.data.title ?? nodeId;
      setMenu({ nodeId, title, x: point.x - rect.left, y: point.y - rect.top, testable: startsRunsOf(node.kind) !== "on-trigger" });
    },
    [definition.nodes, flowNodes],
  );
  const closeNodeMenu = useCallback(() => setMenu(null), []);

  // ---- view -----------------------------------------------------------------
  const canvasViewOptions = { loaded: loadedDefinition, definition: shown, canvasRef, sizes: nodeMapper.sizes, commit, selectNode: selectOne };
  const { onInit, fitView, autoLayoutAndFit: onAutoLayout, goToNode } = useCanvasView(canvasViewOptions);
  useFitToProposal(reviewing, architect.state, fitView);

  // ---- saving, publishing and running ------------------------------------------
  const clearSelection = useCallback(() => select(NONE), [select]);
  const savingOptions = { workflowId, definition, version, publishedVersion: loadedPublishedVersion, markSaved, reset, clearSelection, notify: setNotice };
  const { save, saving, saveProblem, dismissSaveProblem, reloading, reloadNewest, publishedVersion, publishing, changePublished } = useWorkflowSaving(savingOptions);

  const restoreVersion = useCallback(
    (restored: WorkflowDefinition, restoredVersion: number) => {
      commit(() => restored);
      select(NONE);
      setVersionsOpen(false);
      setNotice(`Version ${restoredVersion} is loaded as unsaved changes. Save to make it the newest version.`);
    },
    [commit, select],
  );

  const hasTriggers = useMemo(() => definition.nodes.some((node) => startsRunsOf(node.kind) === "on-trigger"), [definition.nodes]);

  const startRun = useCallback(async () => {
    if (dirty) {
      setStartingRun(true);
      const saved = await save();
      setStartingRun(false);
      if (saved === null) return;
    }
    setRunOpen(true);
  }, [dirty, save]);

  // A test delivery runs a saved version: listening saves first, as Run does.
  const saveDraft = useCallback(async () => (dirty ? save() : version), [dirty, save, version]);

  const openGoTo = useCallback(() => setGoToOpen(true), []);
  const closeGoTo = useCallback(() => setGoToOpen(false), []);
  const saveShortcut = useCallback(() => (readOnly ? null : save()), [readOnly, save]);
  useEditorShortcuts({ save: saveShortcut, openGoTo, undo, redo });

  // ---- inspector --------------------------------------------------------------
  const selectedNode = useMemo<WorkflowNode | undefined>(() => {
    if (selectedNodes.size !== 1) return undefined;
    const [id] = selectedNodes;
    return definition.nodes.find((node) => node.id === id);
  }, [selectedNodes, definition.nodes]);

  const inspectorEdits = useInspectorEdits({ selectedId: selectedNode?.id, selectedNodes, selectedEdges, commit, select, connect, deleteElements });

  // Joined into a string first, so the palette (memoised) sees a new list only when the list changes, not on every move.
  const kindsAtLimitKey = kindsAtLimit(definition.nodes).join(" ");
  const paletteKindsAtLimit = useMemo(() => (kindsAtLimitKey === "" ? [] : (kindsAtLimitKey.split(" ") as NodeKind[])), [kindsAtLimitKey]);
  const inputFields = useMemo(() => definition.nodes.find((node) => node.kind === "input")?.fields ?? [], [definition.nodes]);
  const { nodeNames, inspectorNames } = useCardNames(flowNodes);
  // Edges are named by the cards they join (a screen reader would otherwise read their internal ids).
  const flowEdges = useMemo(
    () => mapEdges(shown.edges, selectedEdges, (edge) => edgeLabel(inspectorNames, edge), preview?.edgeMarks),
    [mapEdges, shown.edges, selectedEdges, inspectorNames, preview],
  );
  const nodeChoices = useMemo<NodeChoice[]>(
    () => (goToOpen ? flowNodes.map((node) => ({ id: node.id, name: node.ariaLabel ?? node.data.title })) : []),
    [goToOpen, flowNodes],
  );

  return (
    <WebhookListeningProvider workflowId={workflowId} saveDraft={saveDraft}>
    <TestRunsProvider workflowId={workflowId} pins={workflowPins.pins} reloadPins={workflowPins.reload} saveDraft={saveDraft}>
    <SamplesProvider workflowId={workflowId} inputFields={inputFieldsOf(definition)}>
      <div className="fixed inset-x-0 bottom-0 top-14 flex flex-col bg-background">
        <EditorToolbar
          name={definition.name}
          version={version}
          dirty={dirty}
          saving={saving}
          problems={problemCounts(validation)}
          canUndo={document.canUndo}
          canRedo={document.canRedo}
          running={startingRun}
          onSave={save}
          onVersions={() => setVersionsOpen(true)}
          activityHref={`/workflows/${encodeURIComponent(workflowId)}/activity`}
          onShare={access.share ? () => setShareOpen(true) : undefined}
          readOnly={readOnly}
          mayRun={access.run}
          mayPublish={access.publish ?? access.edit}
          onAutoLayout={onAutoLayout}
          onFitView={() => fitView()}
          onGoToNode={openGoTo}
          onDescribe={architectPanel.openPanel}
          onUndo={undo}
          onRedo={redo}
          onRun={() => void startRun()}
          publishedVersion={publishedVersion}
          hasTriggers={hasTriggers}
          publishing={publishing}
          onPublish={() => void changePublished(true)}
          onUnpublish={() => void changePublished(false)}
        />
        <div className="relative flex min-h-0 flex-1">
          {readOnly ? null : (
            <SidePanel drawers={drawers} drawer="palette" side="left" title="Add nodes" closeLabel="the node list" wideWidth="lg:w-64">
              <NodePalette tools={tools} kindsAtLimit={paletteKindsAtLimit} onAdd={addAtCentre} />
            </SidePanel>
          )}
          <div ref={canvasRef} className="relative min-w-0 flex-1">
            <EditorCanvas
              nodes={flowNodes}
              edges={flowEdges}
              {...canvasHandlers}
              onInit={onInit}
              onDropItem={onDropItem}
              onInsertOnEdge={edgeInsertion.openPicker}
              onNodeDragStop={settle}
              onNodeMenu={readOnly || reviewing ? ignoreChange : openNodeMenu}
              onNodeOpen={openInspectorDrawer}
              readOnly={readOnly || reviewing}
              showMiniMap={definition.nodes.length > 0 && definition.nodes.length <= MINIMAP_LIMIT}
            />
            {menu ? <NodeMenu target={menu} onClose={closeNodeMenu} onSelect={selectOne} /> : null}
            {shown.nodes.length === 0 ? (
              <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-6">
                <div className="max-w-sm rounded-xl border border-dashed border-line-strong bg-surface/90 px-6 py-5 text-center shadow-card">
                  <p className="text-sm font-semibold">Start with Run inputs</p>
                  <p className="mt-1 text-sm text-muted">Drag building blocks and tools from the palette, then drag from a card&apos;s right-hand dot to the next card to connect them, or use Connect to… in the selected card&apos;s inspector.</p>
                  {readOnly || architectPanel.open ? null : (
                    <p className="mt-3 text-sm text-muted">
                      Or{" "}
                      <button type="button" className="pointer-events-auto font-medium text-accent underline-offset-2 hover:underline" onClick={architectPanel.openPanel}>
                        describe what it should do
                      </button>{" "}
                      and get a draft to start from.
                    </p>
                  )}
                </div>
              </div>
            ) : null}
            {reviewing ? (
              <p className="pointer-events-none absolute left-1/2 top-3 z-10 -translate-x-1/2 rounded-full border border-line bg-surface px-3 py-1 text-xs font-medium shadow-card" data-testid="proposal-banner">
                A proposal: new steps green, changed blue, removed red. Accept or discard it in the panel to edit again.
              </p>
            ) : null}
            <LiveRegion message={announcement} testId="editor-announcement" />
            <div aria-live="polite" className="pointer-events-none absolute inset-x-0 bottom-4 flex justify-center px-4">
              {notice ? (
                <p className="pointer-events-auto rounded-lg border border-line bg-surface px-3 py-2 text-sm shadow-card-raised">{notice}</p>
              ) : null}
            </div>
            {validation.error ? (
              <p role="alert" className="absolute left-4 top-3 rounded-md bg-caution-soft px-3 py-1.5 text-xs text-caution">
                {validation.error}
              </p>
            ) : null}
          </div>
          <SidePanel
            drawers={drawers}
            drawer="inspector"
            side="right"
            title={architectPanel.open ? "Describe what it should do" : "Inspector"}
            closeLabel={architectPanel.open ? "the Architect" : "the inspector"}
            label={architectPanel.open ? "Architect" : "Inspector"}
            wideWidth="lg:w-96"
          >
            {architectPanel.open ? (
              <ArchitectPanel architect={architect} workflowId={workflowId} definition={definition} tools={toolsByName} onClose={architectPanel.closePanel} />
            ) : null}
            {readOnly && !architectPanel.open ? (
              <p className="m-4 mb-0 rounded-md bg-surface-sunken px-3 py-2 text-xs text-muted" data-testid="read-only-note">
                You may look at this workflow, not change it: that needs the workflow:edit scope on it.
              </p>
            ) : null}
            {/* Read-only, every field and button of the inspector is disabled by the browser itself. */}
            <ReadOnlyContext.Provider value={readOnly}>
              <fieldset disabled={readOnly} className={architectPanel.open ? "hidden" : "contents"}>
              <InspectorPanel
                workflowId={workflowId}
                definition={definition}
                tools={tools}
                node={selectedNode}
                selectedCount={selectedNodes.size + selectedEdges.size}
                problemsByNode={validation.byNode}
                generalProblems={validation.general}
                names={inspectorNames}
                edits={inspectorEdits}
              />
              </fieldset>
            </ReadOnlyContext.Provider>
          </SidePanel>
          <div className="pointer-events-none absolute inset-x-0 top-0 z-10 flex justify-between gap-2 p-2 lg:hidden">
            {readOnly ? (
              <span />
            ) : (
              <DrawerToggle drawers={drawers} drawer="palette">
                <span aria-hidden="true" className="text-base leading-none">+</span> Nodes
              </DrawerToggle>
            )}
            <DrawerToggle drawers={drawers} drawer="inspector">
              Inspector
            </DrawerToggle>
          </div>
        </div>
        <LeaveGuard dirty={dirty} />
        <VersionsDialog
          open={versionsOpen}
          workflowId={workflowId}
          currentVersion={version}
          onClose={() => setVersionsOpen(false)}
          onRestore={restoreVersion}
        />
        {shareOpen ? <ShareDialog workflowId={workflowId} workflowName={definition.name} onClose={() => setShareOpen(false)} /> : null}
        <InsertStepDialog
          edgeName={edgeInsertion.pickingFor === null ? null : (flowEdges.find((edge) => edge.id === edgeInsertion.pickingFor)?.ariaLabel ?? "Connection")}
          tools={tools}
          kindsAtLimit={paletteKindsAtLimit}
          problem={edgeInsertion.problem}
          onPick={edgeInsertion.pick}
          onClose={edgeInsertion.closePicker}
        />
        <GoToNodeDialog open={goToOpen} nodes={nodeChoices} onClose={closeGoTo} onGo={(nodeId) => (closeGoTo(), goToNode(nodeId))} />
        <SaveProblemDialog problem={saveProblem} reloading={reloading} onClose={dismissSaveProblem} onReload={() => void reloadNewest()} />
        <RunDialog
          open={runOpen}
          workflowId={workflowId}
          fields={inputFields}
          nodeNames={nodeNames}
          onClose={() => setRunOpen(false)}
          onProblems={validation.showProblems}
        />
      </div>
    </SamplesProvider>
    </TestRunsProvider>
    </WebhookListeningProvider>
  );
}
