import { OPEN_ROUTES } from "@/lib/server/access/route-access";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./studio-server";

/** Every route and page the studio serves, read from app/, so a new one is covered by the door tests without a second list. */

const APP = path.join(REPO_ROOT, "app");

function urlOf(folder: string): string {
  const relative = path.relative(APP, folder).split(path.sep).join("/");
  return `/${relative}`.replace(/\[[^\]]+\]/g, "x").replace(/\/$/, "") || "/";
}

function walk(folder: string, file: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return walk(full, file);
    return entry.name === file ? [folder] : [];
  });
}

/** `[method, url]` for every method every route under app/api exports, ids replaced by `x`. */
export function everyRoute(): [string, string][] {
  return walk(path.join(APP, "api"), "route.ts").flatMap((folder) =>
    [...readFileSync(path.join(folder, "route.ts"), "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map(
      (match): [string, string] => [match[1]!, urlOf(folder)],
    ),
  );
}

/**
 * Routes that answer without any credential by design (signing in and out, single sign-on, joining with an
 * invitation): the route table's open routes, but the MCP endpoint, which asks for its own token (a 401 without).
 */
const WITHOUT_CREDENTIAL = new Set(OPEN_ROUTES.map((key) => key.split(" ")[1]!).filter((url) => url !== "/api/mcp"));

/** Every route that needs a credential (the MCP endpoint's is its own token). */
export function everyCredentialedRoute(): [string, string][] {
  return everyRoute().filter(([, url]) => !WITHOUT_CREDENTIAL.has(url));
}

/** Every page's URL, ids replaced by `x`. */
export function everyPage(): string[] {
  return walk(APP, "page.tsx").map(urlOf);
}

/** Pages shown without signing in: the sign-in page, and an invitation link's page (which says what the link is). */
const OPEN_PAGES = new Set(["/login", "/invite/x"]);

/** Every page that needs a signed-in person. */
export function everySignedInPage(): string[] {
  return everyPage().filter((page) => !OPEN_PAGES.has(page));
}

/** A body that would pass most routes' parsing, so a refusal is the door's and not the parser's. */
export function plausibleBody(method: string): unknown {
  return method === "GET" || method === "DELETE" ? undefined : { name: "x", nodes: [], decision: "once", value: "v", transport: "http", url: "http://127.0.0.1:1/", token: "x" };
}
