import { redirect } from "next/navigation";

/** Settings in the header opens its first page. */
export default function SettingsPage() {
  redirect("/settings/secrets");
}
