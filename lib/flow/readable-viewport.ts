/**
 * Where a canvas opens (and where the editor's Fit view goes on a phone):
 * the whole workflow when it fits at a zoom whose text can still be read,
 * else its start (the first cards, at the left, where a run begins) at a
 * readable zoom, the rest a pan away. Fitting a long workflow into a phone's
 * 390 px at any cost gave 0.28: five-pixel text, the cards unreadable.
 * Pure: the canvases call it with their own size and React Flow applies it.
 */

export interface FlowRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export interface ReadableViewOptions {
  /** Below this zoom the workflow is not shown whole: text would be too small to read. */
  readableZoom: number;
  /** The zoom the start is shown at when the whole does not fit (at least readableZoom). */
  startZoom: number;
  /** Never larger than this, however small the workflow. */
  maxZoom: number;
  /** Room left around the workflow, as a fraction of the canvas on each side, so the outer cards are never cut. */
  padding: number;
}

/** Space kept, in screen pixels, between the canvas's edge and the first card when the start is shown. */
const START_MARGIN = 24;

export function readableViewport(bounds: FlowRect, canvas: { width: number; height: number }, options: ReadableViewOptions): Viewport & { whole: boolean } {
  const room = 1 - 2 * options.padding;
  const fit = Math.min(options.maxZoom, (canvas.width * room) / Math.max(bounds.width, 1), (canvas.height * room) / Math.max(bounds.height, 1));
  if (fit >= options.readableZoom) {
    return {
      zoom: fit,
      x: canvas.width / 2 - (bounds.x + bounds.width / 2) * fit,
      y: canvas.height / 2 - (bounds.y + bounds.height / 2) * fit,
      whole: true,
    };
  }
  const zoom = Math.max(options.startZoom, options.readableZoom);
  // Centred top to bottom when the height fits; else from the top, as the width is from the left.
  const fitsTall = bounds.height * zoom <= canvas.height - 2 * START_MARGIN;
  return {
    zoom,
    x: START_MARGIN - bounds.x * zoom,
    y: fitsTall ? canvas.height / 2 - (bounds.y + bounds.height / 2) * zoom : START_MARGIN - bounds.y * zoom,
    whole: false,
  };
}
