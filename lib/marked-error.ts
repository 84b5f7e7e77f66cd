/**
 * The base of an error class recognised by its `marker` rather than by instanceof: the server's bundles (each
 * Next.js route's, the worker's) may each hold their own copy of a class, and what one copy throws is no instance
 * of another's. `name` is the error's name in messages and stack traces; without it, it stays "Error".
 *
 * @example
 *   export class DataFileError extends markedError("neurosurfer.data-file", "DataFileError") {}
 *   if (DataFileError.isInstance(error)) return ToolResult.error(error.message);
 */
export function markedError(marker: string, name?: string) {
  return class MarkedError extends Error {
    readonly marker = marker;
    constructor(message: string) {
      super(message);
      if (name !== undefined) this.name = name;
    }
    /** Whether `error` is one of this class's, whichever copy of the class made it. */
    static isInstance<Instance>(this: abstract new (...args: never[]) => Instance, error: unknown): error is Instance {
      return error instanceof Error && (error as { marker?: unknown }).marker === marker;
    }
  };
}
