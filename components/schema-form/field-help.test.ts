import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { describeField } from "@/lib/schema-form/field-descriptors";
import { defaultValueText, fieldHelp } from "./field-help";

const LONG_ADDRESS = `https://example.com/${"very-long-segment/".repeat(12)}compress`;

const render = (help: ReturnType<typeof fieldHelp>) => renderToStaticMarkup(createElement(Fragment, null, help));

describe("a field's help", () => {
  it("puts the default on its own line, apart from the description's last words", () => {
    const field = describeField("endpoint", "endpoint", { type: "string", description: "Where to send files to compress", default: LONG_ADDRESS }, false);
    const html = render(fieldHelp({ texts: [field.description], defaultValue: defaultValueText(field) }));
    expect(html).toContain('<span class="block">Where to send files to compress</span>');
    expect(html).not.toMatch(/compress Default/);
    expect(html).toMatch(/<span class="block wrap-anywhere" data-field-default="">Default: <code class="font-mono">https:\/\/example\.com\//);
  });

  it("says nothing about a default the description states already, or an empty one", () => {
    const stated = describeField("limit", "limit", { type: "integer", description: "Defaults to 2000.", default: 2000 }, false);
    expect(defaultValueText(stated)).toBeNull();
    expect(defaultValueText(describeField("tags", "tags", { type: "array", items: { type: "string" }, default: [] }, false))).toBeNull();
    expect(defaultValueText(describeField("limit", "limit", { type: "integer", default: 20 }, false))).toBe("20");
  });

  it("names a choice's default in the schema's words for it", () => {
    const choice = describeField("onError", "onError", { type: "string", enum: ["stop", "continue"], default: "stop", optionLabels: { stop: "Stop the run" } }, false);
    expect(defaultValueText(choice)).toBe("Stop the run");
    expect(defaultValueText(describeField("mode", "mode", { type: "string", enum: ["a", "b"], default: "a" }, false))).toBe("a");
  });

  it("is nothing at all when there is nothing to say", () => {
    expect(fieldHelp({ texts: [undefined], defaultValue: null })).toBeUndefined();
  });
});
