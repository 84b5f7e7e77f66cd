/**
 * The persistence layer's errors. Each carries a stable `marker` so
 * `isInstance` works across module copies (Next.js dev reloads, bundles),
 * where `instanceof` does not.
 */

/** Unknown id: a route handler answers 404. */
export class NotFoundError extends Error {
  readonly marker = "neurosurfer.not-found";
  constructor(
    /** What was looked for, e.g. "workflow" or "secret". */
    readonly kind: string,
    readonly id: string,
  ) {
    super(`No ${kind} "${id}" exists. It may have been deleted; reload the list and pick another.`);
    this.name = "NotFoundError";
  }
  static isInstance(error: unknown): error is NotFoundError {
    return error instanceof Error && (error as { marker?: unknown }).marker === "neurosurfer.not-found";
  }
}

/** The write clashes with what is stored (a name taken, a stale version): a route handler answers 409. */
export class ConflictError extends Error {
  readonly marker = "neurosurfer.conflict";
  constructor(
    readonly kind: string,
    readonly id: string,
    message: string,
  ) {
    super(message);
    this.name = "ConflictError";
  }
  static isInstance(error: unknown): error is ConflictError {
    return error instanceof Error && (error as { marker?: unknown }).marker === "neurosurfer.conflict";
  }
}

/** The database cannot be brought up to the committed migrations; the studio must not start on it. */
export class MigrationError extends Error {
  readonly marker = "neurosurfer.migration";
  constructor(
    message: string,
    /** The migration folder concerned, when there is one. */
    readonly migration?: string,
  ) {
    super(message);
    this.name = "MigrationError";
  }
  static isInstance(error: unknown): error is MigrationError {
    return error instanceof Error && (error as { marker?: unknown }).marker === "neurosurfer.migration";
  }
}

/** The secret key cannot be read or used (bad STUDIO_SECRET_KEY, a key file others can read, a broken file). */
export class SecretKeyError extends Error {
  readonly marker = "neurosurfer.secret-key";
  constructor(message: string) {
    super(message);
    this.name = "SecretKeyError";
  }
  static isInstance(error: unknown): error is SecretKeyError {
    return error instanceof Error && (error as { marker?: unknown }).marker === "neurosurfer.secret-key";
  }
}

/** The key does not open the secrets already stored; starting anyway would lose them. */
export class SecretKeyMismatchError extends Error {
  readonly marker = "neurosurfer.secret-key-mismatch";
  constructor(message: string) {
    super(message);
    this.name = "SecretKeyMismatchError";
  }
  static isInstance(error: unknown): error is SecretKeyMismatchError {
    return error instanceof Error && (error as { marker?: unknown }).marker === "neurosurfer.secret-key-mismatch";
  }
}

/** A stored value does not decrypt: the wrong key, or the ciphertext was altered. */
export class SecretDecryptionError extends Error {
  readonly marker = "neurosurfer.secret-decryption";
  constructor(message: string) {
    super(message);
    this.name = "SecretDecryptionError";
  }
  static isInstance(error: unknown): error is SecretDecryptionError {
    return error instanceof Error && (error as { marker?: unknown }).marker === "neurosurfer.secret-decryption";
  }
}
