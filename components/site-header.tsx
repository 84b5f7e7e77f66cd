import type { Role } from "@/lib/contracts/roles";
import Link from "next/link";
import { InboxCount } from "./navigation/inbox-count";
import { MainMenu } from "./navigation/main-menu";
import { NavLink } from "./nav-link";
import { StudioLogo } from "./tool-icon";

/** Pages in the top navigation. Add one here only when its page exists. */
const NAVIGATION = [
  { href: "/workflows", label: "Workflows" },
  { href: "/runs", label: "Runs" },
  { href: "/inbox", label: "Inbox" },
  { href: "/", label: "Tools" },
  // Secrets, MCP and Security are tabs inside it (components/navigation/settings-tabs.tsx): "Settings → Secrets" in the help texts.
  { href: "/settings", label: "Settings" },
] as const;

/** The top bar; the navigation, the person's name and their role only once someone is signed in (`signedIn`). */
export function SiteHeader({ signedIn }: { signedIn: { person: string; role: Role } | null }) {
  return (
    <header className="sticky top-0 z-10 border-b border-line bg-surface/85 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-6 px-4 sm:px-6">
        <Link href="/workflows" className="flex shrink-0 items-center gap-2.5 rounded-md font-semibold tracking-tight text-foreground">
          <StudioLogo className="size-7" />
          <span>Neurosurfer Studio</span>
        </Link>
        {signedIn !== null ? (
          <MainMenu person={signedIn.person} role={signedIn.role}>
            {NAVIGATION.map((item) => (
              <li key={item.href}>
                <NavLink href={item.href}>
                  {item.label}
                  {item.href === "/inbox" ? <InboxCount testId="inbox-count" /> : null}
                </NavLink>
              </li>
            ))}
          </MainMenu>
        ) : null}
      </div>
    </header>
  );
}
