/** Where a JSON text goes wrong: 1-based line and column, and what was expected there. */
export interface JsonSyntaxProblem {
  line: number;
  column: number;
  message: string;
}

/**
 * Locates the first syntax error in `text`, or returns null when it is valid
 * JSON. `JSON.parse` in Node 20 does not always say where it failed, and a
 * person fixing a file needs the line.
 *
 * @example
 *   findJsonSyntaxError('{"a": 1,\n "b": }') // { line: 2, column: 7, message: "expected a value, found '}'" }
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | null {
  const scanner = new JsonScanner(text);
  try {
    scanner.skipByteOrderMark();
    scanner.whitespace();
    scanner.value(0);
    scanner.whitespace();
    if (!scanner.atEnd()) scanner.fail(`unexpected ${scanner.describeHere()} after the end of the JSON value`);
    return null;
  } catch (error) {
    if (error instanceof JsonScanError) return { ...positionOf(text, error.position), message: error.message };
    throw error;
  }
}

/** 1-based line and column of a character offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index += 1) {
    const character = text[index];
    if (character === "\n" || (character === "\r" && text[index + 1] !== "\n")) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class JsonScanError extends Error {
  constructor(message: string, readonly position: number) {
    super(message);
  }
}

const MAX_DEPTH = 512;

class JsonScanner {
  private index = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.index >= this.text.length;
  }

  skipByteOrderMark(): void {
    if (this.text.charCodeAt(0) === 0xfeff) this.index = 1;
  }

  fail(message: string): never {
    throw new JsonScanError(message, this.index);
  }

  describeHere(): string {
    if (this.atEnd()) return "end of file";
    return `'${this.text[this.index]}'`;
  }

  whitespace(): void {
    while (!this.atEnd() && " \t\n\r".includes(this.text[this.index]!)) this.index += 1;
  }

  value(depth: number): void {
    if (depth > MAX_DEPTH) this.fail("nested too deeply");
    const character = this.text[this.index];
    if (character === "{") return this.object(depth);
    if (character === "[") return this.array(depth);
    if (character === '"') return this.string();
    if (character === "-" || (character !== undefined && character >= "0" && character <= "9")) return this.number();
    for (const literal of ["true", "false", "null"]) {
      if (this.text.startsWith(literal, this.index)) {
        this.index += literal.length;
        return;
      }
    }
    if (character === "'") this.fail("strings must use double quotes, found a single quote");
    this.fail(`expected a value, found ${this.describeHere()}`);
  }

  private object(depth: number): void {
    this.members("}", "a property value", () => {
      if (this.text[this.index] !== '"') {
        this.fail(
          this.text[this.index] === "}"
            ? "trailing comma before '}'"
            : `expected a property name in double quotes, found ${this.describeHere()}`,
        );
      }
      this.string();
      this.whitespace();
      if (this.text[this.index] !== ":") this.fail(`expected ':' after the property name, found ${this.describeHere()}`);
      this.index += 1;
      this.whitespace();
      this.value(depth + 1);
    });
  }

  private array(depth: number): void {
    this.members("]", "an array element", () => {
      if (this.text[this.index] === "]") this.fail("trailing comma before ']'");
      this.value(depth + 1);
    });
  }

  /**
   * An object's or an array's members, from its opening bracket to `close`: the
   * two differ only in what one member is (`member`, called at its first
   * character) and what the error says comes before a missing comma (`after`).
   */
  private members(close: "}" | "]", after: string, member: () => void): void {
    this.index += 1;
    this.whitespace();
    if (this.text[this.index] === close) {
      this.index += 1;
      return;
    }
    for (;;) {
      this.whitespace();
      member();
      this.whitespace();
      const next = this.text[this.index];
      if (next === ",") {
        this.index += 1;
        continue;
      }
      if (next === close) {
        this.index += 1;
        return;
      }
      this.fail(`expected ',' or '${close}' after ${after}, found ${this.describeHere()}`);
    }
  }

  private string(): void {
    const start = this.index;
    this.index += 1;
    while (!this.atEnd()) {
      const character = this.text[this.index]!;
      if (character === '"') {
        this.index += 1;
        return;
      }
      if (character === "\\") {
        const escape = this.text[this.index + 1];
        if (escape === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.index + 2, this.index + 6))) this.fail("invalid \\u escape in a string");
          this.index += 6;
        } else if (escape !== undefined && `"\\/bfnrt`.includes(escape)) {
          this.index += 2;
        } else {
          this.fail(`invalid escape '\\${escape ?? ""}' in a string`);
        }
        continue;
      }
      if (character < " ") this.fail("unescaped control character (such as a newline) in a string");
      this.index += 1;
    }
    this.index = start;
    this.fail("string is never closed");
  }

  private number(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.index, this.index + 400));
    if (!match || match[0] === "-") this.fail(`invalid number starting with ${this.describeHere()}`);
    this.index += match[0].length;
  }
}
