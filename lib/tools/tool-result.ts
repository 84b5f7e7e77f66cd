import type { ArgumentChange } from "./permissions/argument-changes";
import { isRetryable, type ToolErrorKind, type ToolErrorOptions } from "./tool-error";

/** An image handed back to a vision model, e.g. a screenshot or a rendered chart. */
export interface ToolImage {
  /** IANA media type, e.g. `image/png`. */
  mediaType: string;
  /** The image bytes, base64-encoded. */
  data: string;
}

/**
 * A signal from a control tool to whoever drives the agent loop.
 * `finish` ends the agent with `value` as its answer.
 */
export type ToolControl = { kind: "finish"; value: string };

/**
 * What a tool returns. A failure is data, not an exception: `ToolResult.error`
 * goes back to the model as a correctable message, and says what kind of
 * failure it is (`errorKind`) and whether trying again may help (`retryable`).
 *
 * @example
 *   return ToolResult.ok("3");
 *   return ToolResult.error("`path`: no such file: notes.txt", { kind: "not-found" });
 *   return ToolResult.error("The connection was reset.", { kind: "network" }); // retryable
 */
export class ToolResult {
  /** What kind of failure this is; null for a success. */
  readonly errorKind: ToolErrorKind | null;
  /** Whether the same call may succeed when tried again (a transient failure); never for a denial or bad input. */
  readonly retryable: boolean;

  private constructor(
    /** The text a model (and a person) reads. */
    readonly content: string,
    readonly isError: boolean,
    readonly images: readonly ToolImage[] = [],
    /** Structured output for the studio (tables, records); never required. */
    readonly data?: unknown,
    readonly control?: ToolControl,
    failure: ToolErrorOptions = {},
    /** What a person changed in the call before approving it (executeTool sets it); the model is told, the run records it. */
    readonly edited: readonly ArgumentChange[] = [],
  ) {
    this.errorKind = isError ? (failure.kind ?? "failed") : null;
    this.retryable = this.errorKind !== null && isRetryable(this.errorKind, failure.retryable);
  }

  /** A success carrying `text`, and optionally structured `data` for the studio to render. */
  static ok(text: string, data?: unknown): ToolResult {
    return new ToolResult(text, false, [], data);
  }

  /**
   * A failure the model can read and correct: say what happened and what to
   * do. `kind` (default `failed`) and `retryable` (default: by kind) tell a
   * workflow whether to try again.
   */
  static error(text: string, failure: ToolErrorOptions = {}): ToolResult {
    return new ToolResult(text, true, [], undefined, undefined, failure);
  }

  /** A success with images for vision models (screenshots, renders). */
  static withImages(text: string, images: readonly ToolImage[], data?: unknown): ToolResult {
    return new ToolResult(text, false, images, data);
  }

  /** A success that also tells the agent loop to do something (e.g. finish). */
  static withControl(text: string, control: ToolControl): ToolResult {
    return new ToolResult(text, false, [], undefined, control);
  }

  /** A copy with every string passed through `transform` (used to mask secrets). */
  mapText(transform: (text: string) => string): ToolResult {
    const data = this.data === undefined ? undefined : mapStrings(this.data, transform);
    const control = this.control ? { ...this.control, value: transform(this.control.value) } : undefined;
    const edited = this.edited.map((change) => mapStrings(change, transform) as ArgumentChange);
    return new ToolResult(transform(this.content), this.isError, this.images, data, control, this.failure(), edited);
  }

  /** A copy saying that the call which gave it was edited by a person before it ran (see describeEdit). */
  withEdit(changes: readonly ArgumentChange[]): ToolResult {
    return new ToolResult(this.content, this.isError, this.images, this.data, this.control, this.failure(), changes);
  }

  private failure(): ToolErrorOptions {
    return this.errorKind ? { kind: this.errorKind, retryable: this.retryable } : {};
  }

  toJSON(): {
    content: string;
    isError: boolean;
    images: readonly ToolImage[];
    data?: unknown;
    control?: ToolControl;
    errorKind?: ToolErrorKind;
    retryable?: boolean;
  } {
    return {
      content: this.content,
      isError: this.isError,
      images: this.images,
      ...(this.data === undefined ? {} : { data: this.data }),
      ...(this.control ? { control: this.control } : {}),
      ...(this.errorKind ? { errorKind: this.errorKind, retryable: this.retryable } : {}),
    };
  }
}

/** Deep-copies plain JSON-like data, passing every string through `transform`. */
export function mapStrings(value: unknown, transform: (text: string) => string): unknown {
  if (typeof value === "string") return transform(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, transform));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = mapStrings(item, transform);
    return out;
  }
  return value;
}
