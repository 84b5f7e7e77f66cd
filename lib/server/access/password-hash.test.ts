import { describe, expect, it } from "vitest";
import { passwordProblem } from "@/lib/contracts/people";
import { hashPassword, verifyPassword } from "./password-hash";

describe("passwords", () => {
  it("are stored as salted scrypt with their parameters, and checked against them", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored).not.toContain("correct");
    expect(await hashPassword("correct horse battery")).not.toBe(stored);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
    expect(await verifyPassword("correct horse battery", "plain text")).toBe(false);
    expect(await verifyPassword("correct horse battery", stored.replace("$32768$", "$NaN$"))).toBe(false);
  });

  it("say what a new one lacks", () => {
    expect(passwordProblem("short", "ada")).toMatch(/at least 12 characters \(this has 5\)/);
    expect(passwordProblem("ada@example.org", "ada@example.org")).toMatch(/other than your sign-in name/);
    expect(passwordProblem("aaaaaaaaaaaaaaa", "ada")).toMatch(/different characters/);
    expect(passwordProblem("correct horse battery", "ada")).toBeNull();
  });
});
