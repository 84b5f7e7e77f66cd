import { LIST_PAGE_SIZE, listQueryString, type SortDirection } from "@/lib/contracts/list-page";
import type { WorkflowListQuery, WorkflowListSort } from "@/lib/contracts/workflow-list";

/** The list's orders as one choice each (a field and a way), as the Order select offers them. */
export const SORT_CHOICES: readonly { value: string; sort: WorkflowListSort; direction: SortDirection; label: string; caption: string }[] = [
  { value: "updatedAt-desc", sort: "updatedAt", direction: "desc", label: "Changed, newest first", caption: "most recently changed first" },
  { value: "updatedAt-asc", sort: "updatedAt", direction: "asc", label: "Changed, oldest first", caption: "least recently changed first" },
  { value: "name-asc", sort: "name", direction: "asc", label: "Name, A to Z", caption: "by name, A to Z" },
  { value: "name-desc", sort: "name", direction: "desc", label: "Name, Z to A", caption: "by name, Z to A" },
  { value: "createdAt-desc", sort: "createdAt", direction: "desc", label: "Made, newest first", caption: "newest first" },
  { value: "createdAt-asc", sort: "createdAt", direction: "asc", label: "Made, oldest first", caption: "oldest first" },
];

export function sortChoiceOf(query: Pick<WorkflowListQuery, "sort" | "direction">): string {
  return `${query.sort}-${query.direction}`;
}

/** The /workflows address of this query (what is default left out); the API takes the same parameters. */
export function workflowListHref(query: Partial<WorkflowListQuery>): string {
  return `/workflows${listQueryString(
    { search: query.search, sort: query.sort, direction: query.direction, limit: query.limit, cursor: query.cursor },
    { sort: "updatedAt", direction: "desc", limit: LIST_PAGE_SIZE },
  )}`;
}
