import type { CSSProperties } from "react";

/**
 * React Flow's own colours, mapped onto the studio's tokens so both themes
 * match the rest of the page: the run view's canvas, and the editor's under
 * what it adds.
 */
export const FLOW_STYLE = {
  "--xy-background-color": "var(--surface-sunken)",
  "--xy-background-pattern-color": "var(--line-strong)",
  "--xy-edge-stroke": "var(--line-control)",
  "--xy-controls-button-background-color": "var(--surface)",
  "--xy-controls-button-background-color-hover": "var(--surface-sunken)",
  "--xy-controls-button-color": "var(--foreground)",
  "--xy-controls-button-color-hover": "var(--foreground)",
  "--xy-controls-button-border-color": "var(--line)",
  "--xy-controls-box-shadow": "var(--shadow)",
  "--xy-attribution-background-color": "transparent",
} as CSSProperties;
