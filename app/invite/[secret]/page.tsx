import type { Metadata } from "next";
import { AcceptInvitationForm } from "@/components/people/accept-invitation-form";
import { ROLE_TITLES } from "@/lib/contracts/roles";
import { readInvitation } from "@/lib/persistence/invitation-store";
import { startStudio } from "@/lib/server/studio";

export const metadata: Metadata = { title: "Join the studio" };
export const dynamic = "force-dynamic";

const UNUSABLE: Record<string, string> = {
  accepted: "This invitation has been used already; each works once. Sign in instead, or ask whoever invited you for a new one.",
  expired: "This invitation has expired. Ask whoever invited you for a new one.",
  revoked: "This invitation was withdrawn. Ask whoever invited you for a new one.",
};

/** Where an invitation link leads: who it makes you, and the form that makes your sign-in. */
export default async function InvitePage({ params }: { params: Promise<{ secret: string }> }) {
  const { database } = await startStudio();
  const { secret } = await params;
  const invitation = secret.length <= 200 ? await readInvitation(secret, database) : null;
  return (
    <div className="mx-auto mt-12 max-w-sm rounded-xl border border-line bg-surface p-8 shadow-card">
      <h1 className="text-xl font-semibold">Join the studio</h1>
      {invitation === null ? (
        <p role="alert" className="mt-4 rounded-md bg-caution-soft px-3 py-2 text-sm text-caution">
          This invitation link is not one this studio made; check you copied all of it.
        </p>
      ) : invitation.status !== "pending" ? (
        <p role="alert" className="mt-4 rounded-md bg-caution-soft px-3 py-2 text-sm text-caution">
          {UNUSABLE[invitation.status]}
        </p>
      ) : (
        <>
          <p className="mb-6 mt-1 text-sm text-muted">
            {invitation.invitedBy} invited you as <strong className="text-foreground">{ROLE_TITLES[invitation.role]}</strong>. Choose how you sign in.
          </p>
          <AcceptInvitationForm secret={secret} />
        </>
      )}
    </div>
  );
}
