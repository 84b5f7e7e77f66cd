import { describe, expect, it } from "vitest";
import { parsePinJson, pinJsonOf } from "./pin-json";

describe("parsePinJson", () => {
  it("takes an output the next steps can read", () => {
    expect(parsePinJson('{ "content": "hi", "data": { "rows": [1] } }')).toEqual({ output: { content: "hi", data: { rows: [1] } } });
  });

  it("names what is wrong: not JSON, a missing field, a field of another type, something credential-like", () => {
    expect(parsePinJson("{ content: ")).toMatchObject({ error: expect.stringMatching(/^Not valid JSON: /) });
    expect(parsePinJson("{}")).toMatchObject({ error: expect.stringMatching(/^content: expected string/) });
    expect(parsePinJson('{ "content": "x", "extra": 1 }')).toMatchObject({ error: expect.stringContaining("extra") });
    expect(parsePinJson('{ "content": "x", "data": { "rows": [{ "apiKey": "abc123" }] } }')).toMatchObject({
      error: expect.stringMatching(/^data\.rows\[0\]\.apiKey: is a field named like a credential/),
    });
  });

  it("round-trips what the editor shows, leaving images out", () => {
    const text = pinJsonOf({ content: "x", data: { a: 1 } });
    expect(parsePinJson(text)).toEqual({ output: { content: "x", data: { a: 1 } } });
  });
});
