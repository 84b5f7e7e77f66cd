import { describe, expect, it } from "vitest";
import { WebhookNodeSchema, hookPath, newHookId } from "./definition";
import { headersReadBy, inputsFromRequest, parseRequestSource, sourceFor, withMapping } from "./request-mapping";

const request = {
  method: "POST",
  path: "github/push",
  query: { page: "2", tag: ["a", "b"] },
  headers: { "x-github-event": "push" },
  body: { repository: { name: "studio" }, commits: [{ id: "c1" }, { id: "c2" }] },
};

describe("webhook request mapping", () => {
  it("reads body paths with indexes, query values, headers (case-insensitive) and the method", () => {
    const inputs = inputsFromRequest(request, [
      { input: "repo", from: "body.repository.name" },
      { input: "second", from: "body.commits[1].id" },
      { input: "page", from: "query.page" },
      { input: "event", from: "headers.X-GitHub-Event" },
      { input: "method", from: "method" },
      { input: "everything", from: "body" },
      { input: "absent", from: "body.nothing.here" },
    ]);
    expect(inputs).toEqual({ repo: "studio", second: "c2", page: "2", event: "push", method: "POST", everything: request.body });
    expect(headersReadBy([{ input: "event", from: "headers.X-GitHub-Event" }, { input: "x", from: "body.x" }])).toEqual(["x-github-event"]);
  });

  it("names what is wrong with a source", () => {
    expect(parseRequestSource("cookies.session")).toMatchObject({ problem: expect.stringMatching(/starts with body/) });
    expect(parseRequestSource("method.name")).toMatchObject({ problem: expect.stringMatching(/nothing follows/) });
    expect(parseRequestSource("headers")).toMatchObject({ problem: expect.stringMatching(/one name/) });
    expect(parseRequestSource("body..x")).toMatchObject({ problem: expect.stringMatching(/is not a name/) });
  });

  it("makes unguessable hook ids that the schema accepts, and addresses by chosen path when there is one", () => {
    const ids = new Set(Array.from({ length: 100 }, () => newHookId()));
    expect(ids.size).toBe(100);
    const node = WebhookNodeSchema.parse({ id: "hook", kind: "webhook", hookId: [...ids][0] });
    expect(node).toMatchObject({ authentication: "unset", methods: ["POST"], respond: "when-finished", maxBodyKilobytes: 1024 });
    expect(hookPath(node)).toBe(node.hookId);
    expect(hookPath({ ...node, path: "github/push" })).toBe("github/push");
    expect(WebhookNodeSchema.safeParse({ ...node, path: "../etc" }).success).toBe(false);
    expect(WebhookNodeSchema.safeParse({ ...node, secret: "literal-value" }).success).toBe(false);
  });
});

describe("mapping from a captured request", () => {
  it("names a value by its place, and refuses places a mapping cannot name", () => {
    expect(sourceFor("body", ["user", "name"])).toBe("body.user.name");
    expect(sourceFor("body", ["items", 0, "id"])).toBe("body.items[0].id");
    expect(sourceFor("body", [])).toBe("body");
    expect(sourceFor("query", ["page"])).toBe("query.page");
    expect(sourceFor("headers", ["x-github-event"])).toBe("headers.x-github-event");
    expect(sourceFor("body", ["first name"])).toBeNull();
    expect(sourceFor("body", ["a.b"])).toBeNull();
    expect(sourceFor("query", ["tag", 1])).toBeNull();
    // What it names reads the value back.
    expect(inputsFromRequest(request, [{ input: "id", from: sourceFor("body", ["commits", 1, "id"])! }])).toEqual({ id: "c2" });
  });

  it("keeps one entry per input: mapping an input again replaces its entry", () => {
    const first = withMapping([], { input: "name", from: "body.name" });
    expect(first).toEqual([{ input: "name", from: "body.name" }]);
    const both = withMapping(first, { input: "page", from: "query.page" });
    expect(withMapping(both, { input: "name", from: "body.user.name" })).toEqual([
      { input: "name", from: "body.user.name" },
      { input: "page", from: "query.page" },
    ]);
  });
});
