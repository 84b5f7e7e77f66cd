import type { Metadata } from "next";
import { LoginForm } from "@/components/login/login-form";
import { somePersonHasPassword } from "@/lib/persistence/people-store";
import { studioPassword } from "@/lib/server/access/principal";
import { SINGLE_SIGN_ON_START, singleSignOnSettings } from "@/lib/server/access/single-sign-on";
import { startStudio } from "@/lib/server/studio";
import { safeNextPath } from "@/lib/navigation/safe-next-path";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

const PROBLEMS: Record<string, string> = {
  link: "That sign-in link did not work: its token is not this studio's (the token changes when the data folder does). Paste the token the studio printed last.",
  throttled: "Too many wrong attempts from your address. Wait a minute, then try again.",
  "sso-off": "Single sign-on is not set up for this studio (its OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET).",
  "sso-unreachable": "The single sign-on provider could not be reached. Try again in a moment, or sign in another way.",
  "sso-expired": "That single sign-on took too long or was started in another browser. Start it again.",
  "sso-failed": "The single sign-on provider's answer did not check out, so nobody was signed in. Start it again.",
  "sso-no-role": "You signed in at the provider, but none of your groups gives a role in this studio. Ask its owner to map one of them (OIDC_ROLE_MAP).",
  "sso-deactivated": "Your account in this studio is deactivated. Ask its owner.",
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const next = safeNextPath(params.next);
  const problem = typeof params.problem === "string" ? PROBLEMS[params.problem] : undefined;
  await startStudio();
  const hasPassword = studioPassword() !== null || (await somePersonHasPassword());
  const singleSignOn = singleSignOnSettings();
  return (
    <div className="mx-auto mt-12 max-w-sm rounded-xl border border-line bg-surface p-8 shadow-card">
      <h1 className="text-xl font-semibold">Sign in to the studio</h1>
      <p className="mb-6 mt-1 text-sm text-muted">
        {hasPassword
          ? "Sign in with your sign-in name and password. Your name is recorded on what you run and the approvals you decide."
          : "Open the sign-in link the studio printed when it started, or paste its access token here. Nothing is served without it, so a web page you visit cannot reach the studio."}
      </p>
      {problem ? (
        <p role="alert" className="mb-5 rounded-md bg-caution-soft px-3 py-2 text-sm text-caution">
          {problem}
        </p>
      ) : null}
      {singleSignOn ? (
        <>
          <a
            href={SINGLE_SIGN_ON_START}
            className="mb-5 flex w-full items-center justify-center rounded-md border border-line-strong bg-surface px-3 py-2 text-sm font-medium shadow-card hover:bg-surface-sunken"
          >
            Sign in with {singleSignOn.label}
          </a>
          <p className="mb-5 text-center text-xs text-muted">or</p>
        </>
      ) : null}
      <LoginForm next={next} hasPassword={hasPassword} studioPassword={studioPassword() !== null} />
    </div>
  );
}
