/**
 * Headers on every answer. `frame-ancestors 'none'` and X-Frame-Options keep
 * other sites from framing the studio and steering a person's clicks onto
 * Approve (clickjacking). The script policy is what Next.js needs without
 * nonces: its own bundles and its inline bootstrap scripts; `'unsafe-eval'`
 * only in development, where React's tooling needs it. Images allow data:
 * and blob: for screenshots and inline results.
 */
export function securityHeaders(development = process.env.NODE_ENV === "development"): Record<string, string> {
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "content-security-policy": policy,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
  };
}
