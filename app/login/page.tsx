import type { Metadata } from "next";
import { LoginForm } from "@/components/login/login-form";
import { safeNextPath } from "@/lib/server/safe-next-path";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only a path inside the studio may follow a sign-in, never another site (`/\host` included). */
function safeNext(value: string | string[] | undefined): string {
  return safeNextPath(value);
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNext((await searchParams).next);
  return (
    <div className="mx-auto mt-12 max-w-sm rounded-xl border border-line bg-surface p-8 shadow-card">
      <h1 className="text-xl font-semibold">Sign in to the studio</h1>
      <p className="mb-6 mt-1 text-sm text-muted">This studio is protected by a password. Your name is recorded on the approvals you decide.</p>
      <LoginForm next={next} />
    </div>
  );
}
