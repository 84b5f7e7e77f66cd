/** An error with an HTTP status and a message written for the caller (lib/server/http.ts turns it into the answer). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}
