import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { SecretDecryptionError } from "./errors";

/** AES-256 takes a 32-byte key. */
export const SECRET_KEY_BYTES = 32;

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals strings with AES-256-GCM. Each value gets a fresh random 12-byte IV;
 * the stored form is `v1:<iv b64>:<tag b64>:<ciphertext b64>`. `context` (e.g.
 * `secret:DB_URL`) is bound as associated data, so a sealed value copied onto
 * another row does not open there.
 *
 * @example
 * const box = createSecretBox(randomBytes(32));
 * const sealed = box.seal("s3cret", "secret:API_KEY");
 * box.open(sealed, "secret:API_KEY"); // "s3cret"
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  /** Throws SecretDecryptionError on a wrong key, a wrong context or an altered value. */
  open(sealed: string, context: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== SECRET_KEY_BYTES) {
    throw new RangeError(`A secret key has ${SECRET_KEY_BYTES} bytes, got ${key.length}.`);
  }
  const secretKey = Buffer.from(key);
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", secretKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString("base64"), tag.toString("base64"), ciphertext.toString("base64")].join(":");
    },
    open(sealed, context) {
      const parts = sealed.split(":");
      const [version, ivText, tagText, ciphertextText] = parts;
      if (parts.length !== 4 || version !== VERSION || ivText === undefined || tagText === undefined || ciphertextText === undefined) {
        throw new SecretDecryptionError(`A stored secret for ${context} is not in the ${VERSION}:<iv>:<tag>:<ciphertext> format.`);
      }
      const iv = Buffer.from(ivText, "base64");
      const tag = Buffer.from(tagText, "base64");
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
        throw new SecretDecryptionError(`A stored secret for ${context} has a malformed IV or tag.`);
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", secretKey, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(Buffer.from(ciphertextText, "base64")), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretDecryptionError(
          `A stored secret for ${context} does not decrypt: it was sealed with another key, or it was altered.`,
        );
      }
    },
  };
}
