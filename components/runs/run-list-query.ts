import { LIST_PAGE_SIZE, listQueryString } from "@/lib/contracts/list-page";
import type { RunListQuery } from "@/lib/contracts/run-list";

/** The /runs address of this query (what is default left out); GET /api/runs takes the same parameters. */
export function runListHref(query: Partial<RunListQuery>): string {
  return `/runs${listQueryString(
    {
      search: query.search,
      status: query.status,
      trigger: query.trigger,
      workflowId: query.workflowId,
      from: query.from,
      to: query.to,
      sort: query.sort,
      direction: query.direction,
      limit: query.limit,
      cursor: query.cursor,
    },
    { sort: "createdAt", direction: "desc", limit: LIST_PAGE_SIZE },
  )}`;
}
