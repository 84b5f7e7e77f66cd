import { expect, test } from "./fixtures/test";
import { cardGeometry } from "@/lib/editor/card-geometry";
import { createWorkflow, uniqueName } from "./fixtures/studio";

/**
 * The editor draws edges to cards it has not drawn yet from estimated sizes
 * and dots (lib/editor/card-geometry.ts). Here every kind of card is drawn
 * and measured, and the estimate must hold to within a pixel and a half: a
 * change to the card's layout that the estimate does not follow fails here,
 * before edges start to jump when a card scrolls into view.
 */

type Shape = Parameters<typeof cardGeometry>[0];

const CARDS: { id: string; node: Record<string, unknown>; shape: Shape }[] = [
  { id: "input", node: { kind: "input", fields: [] }, shape: { subtitle: "No fields yet", hasInput: false } },
  { id: "plain", node: { kind: "tool", tool: "read_file", settings: {}, arguments: {} }, shape: {} },
  { id: "operation", node: { kind: "tool", tool: "run_command", operation: "run", settings: {}, arguments: {} }, shape: { subtitle: "Run a command" } },
  { id: "guarded", node: { kind: "tool", tool: "read_file", label: "With an error path", settings: {}, arguments: {}, execution: { onError: "error-edge" } }, shape: { errorHandle: true } },
  {
    id: "router",
    node: { kind: "router", routes: [{ id: "a", label: "A", value: "x", operator: "is_true", compareTo: "" }, { id: "b", label: "B", value: "y", operator: "is_true", compareTo: "" }] },
    shape: { subtitle: "2 routes", outputs: [{ id: "a", label: "A" }, { id: "b", label: "B" }, { id: "default", label: "default" }] },
  },
  { id: "agent", node: { kind: "agent" }, shape: { subtitle: "Agent · choose a model" } },
  { id: "output", node: { kind: "output", value: "" }, shape: { subtitle: "The run's result", hasOutput: false } },
];

test("cards are drawn where the editor estimated them, dots included, for every kind of card", async ({ page, request }, testInfo) => {
  const id = await createWorkflow(request, {
    name: uniqueName("Card geometry", testInfo),
    description: "",
    nodes: CARDS.map((card, index) => ({ id: card.id, position: { x: (index % 4) * 300, y: Math.floor(index / 4) * 220 }, ...card.node })) as never,
    edges: [],
  });
  await page.goto(`/workflows/${id}`);
  for (const card of CARDS) await expect(page.locator(`.react-flow__node[data-id="${card.id}"]`)).toBeVisible();

  const drawn = await page.evaluate(() => {
    const zoom = Number(getComputedStyle(document.querySelector<HTMLElement>(".react-flow")!).getPropertyValue("--flow-zoom")) || 1;
    return Object.fromEntries(
      [...document.querySelectorAll<HTMLElement>(".react-flow__node")].map((node) => {
        const box = node.getBoundingClientRect();
        const dots = [...node.querySelectorAll<HTMLElement>(".react-flow__handle")].map((dot) => {
          const at = dot.getBoundingClientRect();
          return { id: dot.dataset.handleid ?? null, type: dot.classList.contains("source") ? "source" : "target", x: (at.left - box.left) / zoom, y: (at.top - box.top) / zoom };
        });
        return [node.dataset.id!, { width: box.width / zoom, height: box.height / zoom, dots }];
      }),
    );
  });

  for (const card of CARDS) {
    const estimate = cardGeometry(card.shape);
    const measured = drawn[card.id]!;
    expect(measured.width, `${card.id}: width`).toBeCloseTo(estimate.width, 0);
    expect(Math.abs(measured.height - estimate.height), `${card.id}: height ${measured.height}, estimated ${estimate.height}`).toBeLessThanOrEqual(1.5);
    expect(measured.dots.map((dot) => `${dot.type}:${dot.id ?? ""}`).sort(), `${card.id}: its dots`).toEqual(estimate.handles.map((handle) => `${handle.type}:${handle.id ?? ""}`).sort());
    for (const handle of estimate.handles) {
      const dot = measured.dots.find((each) => each.type === handle.type && (each.id ?? null) === (handle.id ?? null))!;
      expect(Math.abs(dot.x - handle.x), `${card.id}: ${handle.type} ${handle.id ?? ""} x ${dot.x}, estimated ${handle.x}`).toBeLessThanOrEqual(1.5);
      expect(Math.abs(dot.y - handle.y), `${card.id}: ${handle.type} ${handle.id ?? ""} y ${dot.y}, estimated ${handle.y}`).toBeLessThanOrEqual(1.5);
    }
  }
});
