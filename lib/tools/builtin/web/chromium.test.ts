import { describe, expect, it } from "vitest";
import { chromiumPath, DEFAULT_CHROMIUM_PATH, HEADLESS_SHELL_PATH } from "./chromium";

describe("chromiumPath", () => {
  it("takes CHROMIUM_PATH when it is set, installed or not", () => {
    expect(chromiumPath({ CHROMIUM_PATH: " /opt/chrome/chrome " }, () => true)).toBe("/opt/chrome/chrome");
  });

  it("prefers the headless shell when it is installed, else Chromium", () => {
    expect(chromiumPath({}, (path) => path === HEADLESS_SHELL_PATH)).toBe(HEADLESS_SHELL_PATH);
    expect(chromiumPath({ CHROMIUM_PATH: "  " }, () => false)).toBe(DEFAULT_CHROMIUM_PATH);
  });
});
