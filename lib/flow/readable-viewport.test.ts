import { describe, expect, it } from "vitest";
import { readableViewport } from "./readable-viewport";

const options = { readableZoom: 0.5, startZoom: 0.6, maxZoom: 1, padding: 0.1 };
/** Three cards in a row, as the starter workflow: 920 wide, 76 high. */
const row = { x: 0, y: 0, width: 920, height: 76 };

/** The flow rectangle the canvas shows at a viewport. */
function shown(viewport: { x: number; y: number; zoom: number }, canvas: { width: number; height: number }) {
  return { left: -viewport.x / viewport.zoom, right: (canvas.width - viewport.x) / viewport.zoom, top: -viewport.y / viewport.zoom, bottom: (canvas.height - viewport.y) / viewport.zoom };
}

describe("readableViewport", () => {
  it("shows the whole workflow, centred, with room around it, when it fits at a readable zoom", () => {
    const canvas = { width: 1400, height: 700 };
    const view = readableViewport(row, canvas, options);
    expect(view.whole).toBe(true);
    expect(view.zoom).toBe(1);
    const area = shown(view, canvas);
    // Every card inside, none cut at the edges.
    expect(area.left).toBeLessThan(0);
    expect(area.right).toBeGreaterThan(920);
    expect(area.top).toBeLessThan(0);
    expect(area.bottom).toBeGreaterThan(76);
  });

  it("keeps the padding on each side when the fit is tight", () => {
    const canvas = { width: 1000, height: 700 };
    const view = readableViewport(row, canvas, options);
    expect(view.zoom).toBeCloseTo((1000 * 0.8) / 920);
    expect(view.x).toBeCloseTo(100);
  });

  it("on a phone shows the start at a readable zoom instead of the whole at 0.3", () => {
    const canvas = { width: 390, height: 600 };
    const view = readableViewport(row, canvas, options);
    expect(view.whole).toBe(false);
    expect(view.zoom).toBe(0.6);
    const area = shown(view, canvas);
    // The first card whole, from a small margin; the rest to the right.
    expect(area.left).toBeLessThan(0);
    expect(area.left).toBeGreaterThan(-60);
    expect(area.right).toBeLessThan(920);
    // Centred top to bottom: the row fits in height.
    expect((area.top + area.bottom) / 2).toBeCloseTo(38);
  });

  it("shows a tall workflow from its top-left corner", () => {
    const tall = { x: 100, y: 200, width: 2000, height: 3000 };
    const view = readableViewport(tall, { width: 390, height: 600 }, options);
    const area = shown(view, { width: 390, height: 600 });
    expect(area.left).toBeCloseTo(100 - 24 / 0.6);
    expect(area.top).toBeCloseTo(200 - 24 / 0.6);
  });

  it("never zooms past the largest zoom, however small the workflow", () => {
    expect(readableViewport({ x: 0, y: 0, width: 240, height: 76 }, { width: 1400, height: 700 }, options).zoom).toBe(1);
  });
});
