import { describe, expect, it } from "vitest";
import { isPrivateAddress, localAddressIn, stringsIn } from "./local-address";

describe("localAddressIn", () => {
  it("finds localhost, loopback and private addresses in URLs and bare text", () => {
    expect(localAddressIn("http://localhost:3000/api")).toBe("localhost");
    expect(localAddressIn("postgres://db.localhost/app")).toBe("db.localhost");
    expect(localAddressIn("https://127.0.0.1/x")).toBe("127.0.0.1");
    expect(localAddressIn("10.1.2.3")).toBe("10.1.2.3");
    expect(localAddressIn("http://192.168.0.10:8080")).toBe("192.168.0.10");
    expect(localAddressIn("http://172.20.0.1")).toBe("172.20.0.1");
    expect(localAddressIn("http://[::1]:8080/")).toBe("[::1]");
    expect(localAddressIn("http://[fd12:3456::1]/")).toBe("[fd12:3456::1]");
  });

  it("leaves public addresses and ordinary words alone", () => {
    expect(localAddressIn("https://example.com/localhosting")).toBeNull();
    expect(localAddressIn("https://8.8.8.8/")).toBeNull();
    expect(localAddressIn("http://172.32.0.1")).toBeNull();
    expect(localAddressIn("version 1.2.3")).toBeNull();
  });

  it("classifies addresses", () => {
    expect(isPrivateAddress("169.254.1.1")).toBe(true);
    expect(isPrivateAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isPrivateAddress("2001:db8::1")).toBe(false);
  });
});

describe("stringsIn", () => {
  it("walks nested values with their paths", () => {
    expect([...stringsIn({ url: "a", hosts: ["b", { c: "d" }], n: 1 }, "arguments")]).toEqual([
      ["arguments.url", "a"],
      ["arguments.hosts.0", "b"],
      ["arguments.hosts.1.c", "d"],
    ]);
  });
});
