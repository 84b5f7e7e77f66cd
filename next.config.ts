import type { NextConfig } from "next";
import { DATASET_FILE_MAX_BYTES } from "./lib/contracts/evaluation-dataset";

const nextConfig: NextConfig = {
  // Native and heavyweight packages are loaded by Node at run time, never bundled:
  // better-sqlite3 and pg ship native or optional bindings, playwright-core drives a browser,
  // prom-client reads the process's own figures (perf_hooks, v8) where it runs; OpenTelemetry's SDK and exporters are
  // loaded only when an OTLP endpoint is set (lib/observability/run-tracing.ts), from node_modules as they ship.
  //
  // The libraries below are loaded by Node too, once, rather than bundled: Turbopack gives each route a chunk of its own
  // holding every library that route reaches, so the AI SDK, undici, nodemailer, zod and the MCP SDK were in the
  // server's memory once per route loaded (27 copies of a 2.5 MB chunk, 133 MB of source text; see bench/volume.bench.ts).
  serverExternalPackages: [
    "ai",
    "@ai-sdk/anthropic",
    "@ai-sdk/openai",
    "@ai-sdk/openai-compatible",
    "@ai-sdk/provider",
    "@modelcontextprotocol/sdk",
    "undici",
    "nodemailer",
    "zod",
    "croner",
    "cronstrue",
    "picomatch",
    "diff",
    "better-sqlite3",
    "pg",
    "playwright-core",
    "prom-client",
    "@opentelemetry/sdk-trace",
    "@opentelemetry/resources",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/exporter-trace-otlp-proto",
  ],
  // Where Prometheus looks by default: the same route as /api/metrics, under the same check (proxy.ts, lib/server/http.ts).
  rewrites: async () => [{ source: "/metrics", destination: "/api/metrics" }],
  poweredByHeader: false,
  // For profiling the pages (bench/): STUDIO_BROWSER_SOURCE_MAPS=1 npx next build maps the browser's bundles to the sources.
  productionBrowserSourceMaps: process.env.STUDIO_BROWSER_SOURCE_MAPS === "1",
  reactStrictMode: true,
  // scripts/test.sh runs `tsc --noEmit` over the whole repository just before it builds: checking the types again here
  // would cost the suite half a minute. Every other build checks them.
  typescript: { ignoreBuildErrors: process.env.STUDIO_BUILD_SKIPS_TYPE_CHECK === "1" },
  // A request passing through proxy.ts has its body buffered up to this and silently cut past it (Next's default is
  // 10 MB): one byte past the largest body a route takes (a dataset file), so every route still sees a body that is too
  // large as too large (each checks its own limit) and none parses a cut one as whole.
  experimental: { proxyClientMaxBodySize: DATASET_FILE_MAX_BYTES + 1 },
};

export default nextConfig;
