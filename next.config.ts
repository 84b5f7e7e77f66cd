import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and heavyweight packages are loaded by Node at run time, never bundled:
  // better-sqlite3 and pg ship native or optional bindings, pg-boss brings its own pg, playwright-core drives a browser.
  serverExternalPackages: ["better-sqlite3", "pg", "pg-boss", "playwright-core"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
