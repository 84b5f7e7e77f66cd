import { RUN_STATUSES, type RunStatus } from "@/lib/contracts/run-status";

/** A workflow as the list shows it; times as ISO strings, the same from the server page and from the API. */
export interface WorkflowListItem {
  id: string;
  name: string;
  description: string;
  latestVersion: number;
  /** The version its triggers start; null while unpublished. */
  publishedVersion: number | null;
  updatedAt: string;
  lastRunStatus: RunStatus | null;
}

const KNOWN_RUN_STATUSES: ReadonlySet<string> = new Set<RunStatus>(RUN_STATUSES);

export function isRunStatus(value: unknown): value is RunStatus {
  return typeof value === "string" && KNOWN_RUN_STATUSES.has(value);
}

/**
 * A summary from `listWorkflows()` (Dates) or from GET /api/workflows (strings)
 * as a list item. An unknown run status shows as "never run" rather than
 * breaking the badge.
 */
export function toListItem(summary: {
  id: string;
  name: string;
  description: string;
  latestVersion: number;
  publishedVersion?: number | null;
  updatedAt: Date | string;
  lastRunStatus?: string | null;
}): WorkflowListItem {
  return {
    id: summary.id,
    name: summary.name,
    description: summary.description,
    latestVersion: summary.latestVersion,
    publishedVersion: summary.publishedVersion ?? null,
    updatedAt: typeof summary.updatedAt === "string" ? summary.updatedAt : summary.updatedAt.toISOString(),
    lastRunStatus: isRunStatus(summary.lastRunStatus) ? summary.lastRunStatus : null,
  };
}

/** Most recently changed first, as the server lists them. */
export function sortByUpdated(items: readonly WorkflowListItem[]): WorkflowListItem[] {
  return [...items].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
}

/**
 * `<name>.json`, with the characters no file system accepts (and control
 * characters) replaced, so "Reports / nightly" downloads as "Reports - nightly.json".
 */
export function exportFileName(name: string): string {
  const safe = name
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/\s*[/\\:*?"<>|]+\s*/g, " - ")
    .replace(/\s+/g, " ")
    .replace(/^[\s.-]+|[\s.-]+$/g, "");
  return `${safe.slice(0, 120) || "workflow"}.json`;
}
