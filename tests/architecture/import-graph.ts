import path from "node:path";
import madge from "madge";
import ts from "typescript";

/**
 * The import graph of `roots` (folders under `baseDir`) as TypeScript
 * resolves it: `@/` paths through `baseDir`'s tsconfig.json, and `import type`
 * counted like any import (a type-only loop still ties the files together).
 */
export async function importGraph(baseDir: string, roots: readonly string[]) {
  const typeImportsToo = { skipTypeImports: false, skipAsyncImports: false };
  return madge(
    // Absolute: madge reads relative roots from the working directory, not from baseDir.
    roots.map((root) => path.join(baseDir, root)),
    {
      baseDir,
      tsConfig: compilerSettings(baseDir),
      fileExtensions: ["ts", "tsx"],
      // A test file imports; nothing imports it, so it closes no loop. Prisma's generated client is not ours.
      excludeRegExp: [/\.test\.tsx?$/, /(^|\/)generated\//],
      detectiveOptions: { ts: typeImportsToo, tsx: typeImportsToo },
    },
  );
}

/**
 * `baseDir`'s tsconfig.json as madge takes it. Without a `baseUrl`, TypeScript
 * reads `paths` from the tsconfig's folder, but the resolver madge hands them
 * to reads them from the working directory: the folder is made explicit.
 */
function compilerSettings(baseDir: string): Record<string, unknown> {
  const file = path.join(baseDir, "tsconfig.json");
  const parsed = ts.parseJsonSourceFileConfigFileContent(ts.readJsonConfigFile(file, ts.sys.readFile), ts.sys, baseDir);
  return { ...(parsed.raw as Record<string, unknown>), compilerOptions: { baseUrl: baseDir, ...parsed.options } };
}
