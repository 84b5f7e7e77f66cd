import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { ReauthenticationPrompt } from "@/components/access/reauthentication-prompt";
import { SiteHeader } from "@/components/site-header";
import { authenticate } from "@/lib/server/access/principal";
import { identityProofs } from "@/lib/server/access/sign-in";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Neurosurfer Studio", template: "%s · Neurosurfer Studio" },
  description: "Build and run agent workflows from the Neurosurfer tool framework, on your own machine.",
};

export const viewport: Viewport = {
  colorScheme: "light dark",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#161920" },
  ],
};

export default async function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  const principal = await authenticate({ headers: await headers() });
  const proofs = principal ? await identityProofs(principal) : null;
  return (
    <html lang="en">
      <body className="flex min-h-dvh flex-col bg-background text-foreground">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-3 focus:z-20 focus:rounded-md focus:bg-accent focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-accent-foreground"
        >
          Skip to content
        </a>
        <SiteHeader signedIn={principal ? { person: principal.person, role: principal.role } : null} />
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6">
          {children}
        </main>
        {proofs ? <ReauthenticationPrompt proofs={proofs} /> : null}
      </body>
    </html>
  );
}
