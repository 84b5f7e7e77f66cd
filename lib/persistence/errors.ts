import { markedError } from "../marked-error";

/**
 * The persistence layer's errors. Each carries a stable `marker` so
 * `isInstance` works across module copies (Next.js dev reloads, bundles),
 * where `instanceof` does not.
 */

/** Unknown id: a route handler answers 404. */
export class NotFoundError extends markedError("neurosurfer.not-found", "NotFoundError") {
  constructor(
    /** What was looked for, e.g. "workflow" or "secret". */
    readonly kind: string,
    readonly id: string,
  ) {
    super(`No ${kind} "${id}" exists. It may have been deleted; reload the list and pick another.`);
  }
}

/** The write clashes with what is stored (a name taken, a stale version): a route handler answers 409. */
export class ConflictError extends markedError("neurosurfer.conflict", "ConflictError") {
  constructor(
    readonly kind: string,
    readonly id: string,
    message: string,
  ) {
    super(message);
  }
}

/** The database cannot be brought up to the committed migrations; the studio must not start on it. */
export class MigrationError extends markedError("neurosurfer.migration", "MigrationError") {
  constructor(
    message: string,
    /** The migration folder concerned, when there is one. */
    readonly migration?: string,
  ) {
    super(message);
  }
}

/** The secret key cannot be read or used (bad STUDIO_SECRET_KEY, a key file others can read, a broken file). */
export class SecretKeyError extends markedError("neurosurfer.secret-key", "SecretKeyError") {}

/** The key does not open the secrets already stored; starting anyway would lose them. */
export class SecretKeyMismatchError extends markedError("neurosurfer.secret-key-mismatch", "SecretKeyMismatchError") {}

/** A stored value does not decrypt: the wrong key, or the ciphertext was altered. */
export class SecretDecryptionError extends markedError("neurosurfer.secret-decryption", "SecretDecryptionError") {}
