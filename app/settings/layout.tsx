import type { ReactNode } from "react";
import { SettingsTabs } from "@/components/navigation/settings-tabs";

/** Secrets, MCP, Security and Data retention: the studio's settings, one header entry, a tab each. */
export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <SettingsTabs />
      {children}
    </>
  );
}
