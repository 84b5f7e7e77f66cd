/**
 * How a test request proves who it is: the studio's access token (as a script
 * would send it) or a session cookie (as a signed-in browser would).
 */
export interface Credential {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | null;
  /** Sent as the Cookie header, e.g. `studio_session=…` after signing in. */
  cookie?: string | null;
}

export function credentialHeaders(credential: Credential): Record<string, string> {
  return {
    ...(credential.token ? { authorization: `Bearer ${credential.token}` } : {}),
    ...(credential.cookie ? { cookie: credential.cookie } : {}),
  };
}
