import { describe, expect, it } from "vitest";
import { GuardrailsSchema } from "./guardrails";
import { MODES_BY_STRICTNESS, stricterGuardrails, stricterMode } from "./stricter";

describe("stricterMode", () => {
  it("orders bypass < accept_edits < default < plan, whichever side is which", () => {
    expect(stricterMode("bypass", "default")).toBe("default");
    expect(stricterMode("default", "bypass")).toBe("default");
    expect(stricterMode("accept_edits", "bypass")).toBe("accept_edits");
    expect(stricterMode("default", "accept_edits")).toBe("default");
    expect(stricterMode("plan", "bypass")).toBe("plan");
    for (const mode of MODES_BY_STRICTNESS) expect(stricterMode(mode, mode)).toBe(mode);
  });
});

describe("stricterGuardrails", () => {
  const guardrails = (values: Partial<Record<string, unknown>>) => GuardrailsSchema.parse(values);

  it("takes the stricter policy on each side: denied anywhere wins", () => {
    const caller = guardrails({ localNetworkPolicy: "denied", shellPolicy: "open", networkPolicy: "gated", mcpPolicy: "open" });
    const own = guardrails({ localNetworkPolicy: "open", shellPolicy: "readonly", networkPolicy: "open", mcpPolicy: "denied" });
    expect(stricterGuardrails(caller, own)).toMatchObject({ localNetworkPolicy: "denied", shellPolicy: "readonly", networkPolicy: "gated", mcpPolicy: "denied" });
    expect(stricterGuardrails(own, caller)).toMatchObject({ localNetworkPolicy: "denied", shellPolicy: "readonly", networkPolicy: "gated", mcpPolicy: "denied" });
  });

  it("intersects what is allowed and unites what is denied", () => {
    const caller = guardrails({ pathAllow: ["**"], writeScope: ["reports/**"], pathDeny: ["**/.env"], localNetworkAllow: ["127.0.0.1", "db.internal:5432"], maxTurns: 10 });
    const own = guardrails({ pathAllow: ["data/**"], writeScope: ["**", "tmp/*.txt"], pathDeny: ["private/**"], localNetworkAllow: ["127.0.0.1:11434", "db.internal:6543", "other"], maxTurns: 50, refuseBidiCommands: false });
    const stricter = stricterGuardrails(caller, own);
    expect(stricter.pathAllow).toEqual(["data/**"]);
    // `**` covers reports/** (kept); reports/** and tmp/*.txt share nothing it can tell (dropped).
    expect(stricter.writeScope).toEqual(["reports/**"]);
    expect(stricter.pathDeny).toEqual(["**/.env", "private/**"]);
    // A host without a port covers it with one; two different ports share nothing.
    expect(stricter.localNetworkAllow).toEqual(["127.0.0.1:11434"]);
    expect(stricter.maxTurns).toBe(10);
    expect(stricter.refuseBidiCommands).toBe(true);
  });

  it("never allows a path neither side plainly covers", () => {
    expect(stricterGuardrails(guardrails({ pathAllow: ["a*/**"] }), guardrails({ pathAllow: ["ab/c"] })).pathAllow).toEqual([]);
    expect(stricterGuardrails(guardrails({ pathAllow: ["a/**"] }), guardrails({ pathAllow: ["a/b/**"] })).pathAllow).toEqual(["a/b/**"]);
  });
});
