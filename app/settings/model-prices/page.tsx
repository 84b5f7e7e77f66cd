import type { Metadata } from "next";
import { ModelPriceSettings } from "@/components/settings/model-price-settings";
import { NoAccess } from "@/components/ui/no-access";
import { pagePrincipal } from "@/lib/server/access/page-access";
import { modelPriceOverview } from "@/lib/server/model-prices";

export const metadata: Metadata = { title: "Model prices" };
export const dynamic = "force-dynamic";

export default async function ModelPricesPage() {
  const principal = await pagePrincipal();
  if (!principal.scopes.has("settings:manage")) return <NoAccess title="Model prices" scope="settings:manage" role={principal.role} />;
  return <ModelPriceSettings initial={await modelPriceOverview()} />;
}
