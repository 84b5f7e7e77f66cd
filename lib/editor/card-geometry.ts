import type { NodeHandle, Position } from "@xyflow/react";
import { ERROR_HANDLE } from "@/lib/contracts/execution-settings";
import { CARD_WIDTH } from "./auto-layout";
import type { CardData } from "./card-data";

/**
 * Where a canvas card's connection dots are before the browser has drawn it,
 * from what the card shows (components/flow/node-card.tsx): its width, its
 * rows (title, subtitle, a router's outputs, the error row) and their fixed
 * line heights. React Flow mounts every node it has not measured, even out of
 * view, to find its dots; given them up front it mounts only the cards in
 * view and draws their edges at once. A card, once drawn, is measured and its
 * measured dots are used from then on. e2e/card-geometry.spec.ts holds these
 * figures to the drawn cards, so a change to the card's layout that does not
 * come here fails there.
 */
/** Kind line, title, padding and border; a subtitle adds a line. */
const HEADER_HEIGHT = 58.5;
const SUBTITLE_HEIGHT = 16;
/** A router's outputs: a border, padding, then rows of one line 4 px apart. */
const OUTPUTS_FRAME = 9;
const OUTPUT_ROW = 20;
/** The first output dot's top below the header. */
const FIRST_OUTPUT_DOT = 8;
/** The "on error" row below the outputs. */
const ERROR_ROW_HEIGHT = 29;
const ERROR_DOT_SIZE = 24;
const DOT_SIZE = 12;

export interface CardGeometry {
  width: number;
  height: number;
  handles: NodeHandle[];
}

export function cardGeometry(data: Pick<CardData, "subtitle" | "outputs" | "hasInput" | "hasOutput" | "errorHandle">): CardGeometry {
  const header = HEADER_HEIGHT + (data.subtitle ? SUBTITLE_HEIGHT : 0);
  const outputs = data.outputs ?? [];
  const outputsHeight = outputs.length > 0 ? OUTPUTS_FRAME + OUTPUT_ROW * outputs.length : 0;
  const height = header + outputsHeight + (data.errorHandle ? ERROR_ROW_HEIGHT : 0);
  const middle = height / 2 - DOT_SIZE / 2;
  const dot = (type: "source" | "target", x: number, y: number, id: string | null = null, size = DOT_SIZE): NodeHandle => ({
    id,
    type,
    // React Flow's Position values, written out: this module is also read by the browser tests, outside a page.
    position: (type === "source" ? "right" : "left") as Position,
    x,
    y,
    width: size,
    height: size,
  });
  const handles: NodeHandle[] = [];
  if (data.hasInput !== false) handles.push(dot("target", -DOT_SIZE / 2, middle));
  if (outputs.length > 0) {
    outputs.forEach((output, index) => handles.push(dot("source", CARD_WIDTH - DOT_SIZE / 2, header + FIRST_OUTPUT_DOT + OUTPUT_ROW * index, output.id)));
  } else if (data.hasOutput !== false) {
    handles.push(dot("source", CARD_WIDTH - DOT_SIZE / 2, middle));
  }
  if (data.errorHandle) handles.push(dot("source", CARD_WIDTH - 13, height - ERROR_ROW_HEIGHT + (ERROR_ROW_HEIGHT - ERROR_DOT_SIZE) / 2 - 0.5, ERROR_HANDLE, ERROR_DOT_SIZE));
  return { width: CARD_WIDTH, height, handles };
}
