import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OPEN_ROUTES, ROUTE_ACCESS } from "@/lib/server/access/route-access";
import { everyRoute } from "./routes";
import { REPO_ROOT } from "./studio-server";

/**
 * The table of who may call what (lib/server/access/route-access.ts) and the
 * route files agree: every exported method has an entry or is one of the
 * open routes, every entry has its route, and each handler names its own
 * entry (a copied handler naming another route's entry would take its rules).
 */

const keyOf = (method: string, folder: string) => `${method} ${folder}`;

/** `[method, folder]` of every route file's exports, with the folder as written (`[id]`, not `x`). */
function exportedRoutes(): { key: string; file: string; named: string[] }[] {
  return everyRoute().map(([method, url]) => {
    const folder = folderOf(url, method);
    const file = path.join(REPO_ROOT, "app", folder, "route.ts");
    const source = readFileSync(file, "utf8");
    // The keys this file's route() calls name, and those of the shared handlers it re-exports.
    const named = [...source.matchAll(/route\("([A-Z]+ [^"]+)"/g)].map((match) => match[1]!);
    return { key: keyOf(method, `/${folder}`), file, named };
  });
}

/** The folder under app/ a route URL of everyRoute() (ids as `x`) came from. */
function folderOf(url: string, method: string): string {
  const candidates = [...Object.keys(ROUTE_ACCESS), ...OPEN_ROUTES].filter((key) => key.startsWith(`${method} `)).map((key) => key.slice(method.length + 2));
  const found = candidates.find((folder) => folder.replace(/\[[^\]]+\]/g, "x") === url.slice(1));
  if (!found) throw new Error(`${method} ${url} has no entry in ROUTE_ACCESS (lib/server/access/route-access.ts): add one saying who may call it`);
  return found;
}

describe("the route access table", () => {
  it("has an entry for every route a file exports, and a route for every entry", () => {
    const exported = exportedRoutes().map((route) => route.key);
    expect(exported.length).toBeGreaterThan(60);
    const listed = [...Object.keys(ROUTE_ACCESS), ...OPEN_ROUTES];
    expect(new Set(exported)).toEqual(new Set(listed));
  });

  it("has each handler name its own entry", () => {
    const shared = readFileSync(path.join(REPO_ROOT, "lib/server/run-routes.ts"), "utf8");
    const sharedKeys = [...shared.matchAll(/export const (\w+) = route\("([A-Z]+ [^"]+)"/g)].map((match) => ({ name: match[1]!, key: match[2]! }));
    for (const route of exportedRoutes()) {
      if ((OPEN_ROUTES as readonly string[]).includes(route.key)) continue;
      const source = readFileSync(route.file, "utf8");
      const method = route.key.split(" ")[0]!;
      const viaShared = sharedKeys.find(({ name }) => new RegExp(`export const ${method} = ${name}\\b`).test(source));
      const named = viaShared ? [viaShared.key] : route.named.filter((key) => key.startsWith(`${method} `));
      expect(named, route.file).toEqual([route.key]);
    }
  });
});
