import type { ReactNode } from "react";
import { SettingsTabs } from "@/components/navigation/settings-tabs";
import { openSettingsPages } from "@/lib/navigation/settings-pages";
import { pagePrincipal } from "@/lib/server/access/page-access";

/** Secrets, MCP, People, Security, Data retention, Model prices and the person's own Account: one header entry, a tab each the person may open. */
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const principal = await pagePrincipal();
  return (
    <>
      <SettingsTabs pages={openSettingsPages(principal.scopes)} />
      {children}
    </>
  );
}
