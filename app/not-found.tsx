import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

const PLACES = [
  { href: "/workflows", title: "Workflows", text: "Build, open and run workflows." },
  { href: "/runs", title: "Runs", text: "Every run, live and finished." },
  { href: "/inbox", title: "Inbox", text: "What waits for your approval." },
  { href: "/", title: "Tools", text: "The actions a workflow can take." },
] as const;

/** Any address the studio has no page for, and a record (a workflow, a run) that no longer exists. */
export default function NotFound() {
  return (
    <div className="mx-auto mt-6 max-w-2xl">
      <p className="font-mono text-sm font-medium text-accent">404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight">This page does not exist</h1>
      <p className="mt-3 max-w-xl text-base leading-7 text-muted">
        The address may be mistyped, or what it pointed to (a workflow, a run) has been deleted. Pick up from one of these:
      </p>
      <ul className="mt-8 grid gap-3 sm:grid-cols-2">
        {PLACES.map((place) => (
          <li key={place.href}>
            <Link
              href={place.href}
              className="group block rounded-xl border border-line bg-surface px-4 py-3.5 shadow-card transition hover:border-line-strong hover:shadow-card-raised"
            >
              <span className="flex items-center justify-between text-sm font-semibold text-foreground group-hover:text-accent">
                {place.title}
                <span aria-hidden="true" className="text-muted transition group-hover:translate-x-0.5 group-hover:text-accent">
                  →
                </span>
              </span>
              <span className="mt-0.5 block text-sm text-muted">{place.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
