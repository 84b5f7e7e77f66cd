import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and heavyweight packages are loaded by Node at run time, never bundled:
  // better-sqlite3 and pg ship native or optional bindings, pg-boss brings its own pg, playwright-core drives a browser.
  serverExternalPackages: ["better-sqlite3", "pg", "pg-boss", "playwright-core"],
  poweredByHeader: false,
  // For profiling the pages (bench/): STUDIO_BROWSER_SOURCE_MAPS=1 npx next build maps the browser's bundles to the sources.
  productionBrowserSourceMaps: process.env.STUDIO_BROWSER_SOURCE_MAPS === "1",
  reactStrictMode: true,
};

export default nextConfig;
