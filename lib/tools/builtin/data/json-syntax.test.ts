import { describe, expect, it } from "vitest";
import { findJsonSyntaxError, positionOf } from "./json-syntax";

describe("findJsonSyntaxError", () => {
  it("returns null for valid JSON", () => {
    expect(findJsonSyntaxError('{"a": [1, 2.5e3, -0, true, null, "x\\n\\u00e9"]}')).toBeNull();
  });

  it("locates errors by line and column", () => {
    expect(findJsonSyntaxError('{"a": 1,\n "b": }')).toEqual({ line: 2, column: 7, message: "expected a value, found '}'" });
    expect(findJsonSyntaxError('[1,\n2,\n]')).toMatchObject({ line: 3, column: 1, message: "trailing comma before ']'" });
    expect(findJsonSyntaxError("{'a': 1}")).toMatchObject({ line: 1, column: 2 });
    expect(findJsonSyntaxError('{"a": "unterminated}')).toMatchObject({ line: 1, column: 7, message: "string is never closed" });
    expect(findJsonSyntaxError('{"a":1}\n{"b":2}')).toMatchObject({ line: 2, column: 1 });
    expect(findJsonSyntaxError("[1, 2")).toMatchObject({ message: "expected ',' or ']' after an array element, found end of file" });
  });

  it("counts CRLF as one line end", () => {
    expect(positionOf("a\r\nb\r\nc", 6)).toEqual({ line: 3, column: 1 });
  });
});
