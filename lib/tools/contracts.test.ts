import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The browser-safe entry is only safe as long as nothing it imports, however
// indirectly, is a Node module or the built-in tool catalog. This walks the
// import graph statically (type-only imports are erased, so they are skipped)
// and names the chain that reaches either.

const REPO = path.resolve(__dirname, "../..");
const BUILTIN_TOOLS = path.join(REPO, "lib/tools/builtin") + path.sep;

// `import x from "y"`, `import { a, type b } from "y"`, `export { a } from "y"`, `export * from "y"`, `import "y"`, `import("y")`.
const STATIC_IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function specifiersOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(STATIC_IMPORT)) if (!match[2]) found.push(match[3]!);
  for (const match of source.matchAll(DYNAMIC_IMPORT)) found.push(match[1]!);
  return found;
}

function resolveFile(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/") ? path.join(REPO, specifier.slice(2)) : path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (existsSync(candidate) && !candidate.endsWith(path.sep) && /\.tsx?$/.test(candidate)) return candidate;
  }
  return null;
}

/** Every forbidden import reachable from `entry`, each as the chain of files that leads to it. */
function forbiddenImports(entry: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const here = [...chain, path.relative(REPO, file)];
    if (file.startsWith(BUILTIN_TOOLS)) {
      problems.push(here.join(" → "));
      return;
    }
    for (const specifier of specifiersOf(readFileSync(file, "utf8"))) {
      const local = specifier.startsWith(".") || specifier.startsWith("@/");
      if (!local) {
        if (isBuiltin(specifier)) problems.push([...here, specifier].join(" → "));
        continue;
      }
      const target = resolveFile(file, specifier);
      if (target) visit(target, here);
      else problems.push([...here, `${specifier} (not found)`].join(" → "));
    }
  };
  visit(entry, []);
  return problems;
}

const sourcesIn = (folder: string) =>
  readdirSync(path.join(REPO, folder))
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
    .map((name) => path.join(folder, name));

describe("the browser-safe entry of lib/tools", () => {
  it("reaches neither a Node module nor the built-in tools", () => {
    expect(forbiddenImports(path.join(REPO, "lib/tools/contracts.ts"))).toEqual([]);
  });

  it.each(["lib/workflow/definition.ts", ...sourcesIn("lib/contracts"), ...sourcesIn("lib/run-view"), ...sourcesIn("components/approvals")])(
    "%s, which the browser loads, stays off them too",
    (file) => expect(forbiddenImports(path.join(REPO, file))).toEqual([]),
  );

  it("the check itself catches the full entry, which carries the built-in tools", () => {
    const problems = forbiddenImports(path.join(REPO, "lib/tools/index.ts"));
    expect(problems.some((chain) => chain.includes("lib/tools/builtin/"))).toBe(true);
    expect(problems.some((chain) => /→ (node:)?(fs|path|child_process)/.test(chain))).toBe(true);
  });
});
