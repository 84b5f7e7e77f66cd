import { describe, expect, it } from "vitest";
import { localRangeOf } from "./address-ranges";

describe("localRangeOf", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["10.0.0.5", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.10", "private"],
    ["100.64.0.1", "private"],
    ["fd12:3456::1", "private"],
    ["169.254.10.10", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["169.254.169.254", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["::ffff:10.0.0.5", "private"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "metadata"],
  ])("%s is %s", (address, range) => {
    expect(localRangeOf(address)).toBe(range);
  });

  it.each(["8.8.8.8", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "example.com", "not an address"])("%s is not local", (address) => {
    expect(localRangeOf(address)).toBeNull();
  });
});
