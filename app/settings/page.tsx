import { redirect } from "next/navigation";
import { openSettingsPages } from "@/lib/navigation/settings-pages";
import { pagePrincipal } from "@/lib/server/access/page-access";

/** Settings in the header opens the first of its pages the person may open. */
export default async function SettingsPage() {
  const principal = await pagePrincipal();
  redirect(openSettingsPages(principal.scopes)[0]?.href ?? "/settings/account");
}
