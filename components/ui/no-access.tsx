import { ROLE_TITLES, SCOPE_DESCRIPTIONS, type Role, type Scope } from "@/lib/contracts/roles";
import { PageHeader } from "./page-header";

/** A page the viewer's role does not open: what it needs, and whom to ask. */
export function NoAccess({ title, scope, role }: { title: string; scope: Scope; role: Role }) {
  return (
    <>
      <PageHeader title={title} />
      <p role="alert" className="rounded-md bg-caution-soft px-4 py-3 text-sm text-caution">
        This page needs the {scope} scope ({SCOPE_DESCRIPTIONS[scope]}); your role, {ROLE_TITLES[role]}, does not include it. An owner or admin can change your role on Settings → People.
      </p>
    </>
  );
}
