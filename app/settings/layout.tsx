import type { ReactNode } from "react";
import { SettingsTabs } from "@/components/navigation/settings-tabs";

/** Secrets, MCP, People, Security, Data retention and the person's own Account: one header entry, a tab each. */
export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <SettingsTabs />
      {children}
    </>
  );
}
