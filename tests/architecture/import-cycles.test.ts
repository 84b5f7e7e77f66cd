import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importGraph } from "./import-graph";

const REPOSITORY = path.resolve(import.meta.dirname, "../..");
// Parsing some 500 files takes seconds on an idle machine, many more on a busy one.
const PARSING_TIME = 180_000;

describe("import loops", () => {
  it(
    "lib/, nodes/ and components/ import each other in one direction only (no loop, type-only imports included)",
    async () => {
      const graph = await importGraph(REPOSITORY, ["lib", "nodes", "components"]);
      const imports = graph.obj();
      // The graph is the real one: `@/` paths resolve, and type-only imports are edges.
      expect(imports["lib/workflow/validate.ts"]).toContain("nodes/server.ts");
      expect(imports["lib/editor/card-geometry.ts"]).toContain("lib/editor/card-data.ts");
      const loops = graph.circular().map((loop) => [...loop, loop[0]].join(" -> "));
      // Each loop printed whole: move what both sides need into a module below them (see docs/architecture.md).
      expect(loops, `Import loops:\n${loops.join("\n")}`).toEqual([]);
    },
    PARSING_TIME,
  );

  describe("the check itself", () => {
    let folder = "";
    afterAll(async () => {
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    it("finds a loop closed by an `import type` through the `@/` alias", async () => {
      folder = await mkdtemp(path.join(os.tmpdir(), "import-loop-"));
      await mkdir(path.join(folder, "lib"));
      await writeFile(path.join(folder, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "esnext", moduleResolution: "bundler", paths: { "@/*": ["./*"] } } }));
      await writeFile(path.join(folder, "lib/engine.ts"), 'import { describe } from "@/lib/describe";\nexport class Engine { name = describe(); }\n');
      await writeFile(path.join(folder, "lib/describe.ts"), 'import type { Engine } from "./engine";\nexport const describe = (engine?: Engine) => engine?.name ?? "engine";\n');
      const graph = await importGraph(folder, ["lib"]);
      expect(graph.circular()).toEqual([["lib/describe.ts", "lib/engine.ts"]]);
    });
  });
});
