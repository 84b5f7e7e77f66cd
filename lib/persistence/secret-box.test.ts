import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SecretDecryptionError } from "./errors";
import { createSecretBox } from "./secret-box";

describe("secret box", () => {
  const box = createSecretBox(randomBytes(32));

  it("round-trips a value in the versioned format, with a fresh IV each time", () => {
    const sealed = box.seal("postgres://user:pässword@db/app", "secret:DB_URL");
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(Buffer.from(sealed.split(":")[1]!, "base64")).toHaveLength(12);
    expect(box.open(sealed, "secret:DB_URL")).toBe("postgres://user:pässword@db/app");
    expect(box.seal("same", "secret:A")).not.toBe(box.seal("same", "secret:A"));
  });

  it("refuses a tampered ciphertext, tag or IV", () => {
    const sealed = box.seal("the value", "secret:A");
    const [version, iv, tag, ciphertext] = sealed.split(":") as [string, string, string, string];
    const flip = (text: string) => {
      const bytes = Buffer.from(text, "base64");
      bytes[0] = bytes[0]! ^ 1;
      return bytes.toString("base64");
    };
    for (const tampered of [
      [version, iv, tag, flip(ciphertext)],
      [version, iv, flip(tag), ciphertext],
      [version, flip(iv), tag, ciphertext],
    ]) {
      expect(() => box.open(tampered.join(":"), "secret:A")).toThrow(SecretDecryptionError);
    }
    expect(() => box.open("v2:a:b:c", "secret:A")).toThrow(/not in the v1:<iv>:<tag>:<ciphertext> format/);
  });

  it("does not open a value under another context or another key", () => {
    const sealed = box.seal("the value", "secret:A");
    expect(() => box.open(sealed, "secret:B")).toThrow(/sealed with another key, or it was altered/);
    expect(() => createSecretBox(randomBytes(32)).open(sealed, "secret:A")).toThrow(SecretDecryptionError);
  });

  it("takes only a 32-byte key", () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
