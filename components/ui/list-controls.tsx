"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition, type ReactNode } from "react";
import { Button } from "./button";
import { CONTROL_CLASS } from "./field";

/**
 * The pieces a paged list's page shares (workflows, runs): a search box, a
 * count, and links to the first and the next page. Every choice is made in
 * the page's address (search, filters, order, cursor), so a page can be
 * linked and Back goes to the one before; the server renders each.
 */

const COUNT = new Intl.NumberFormat("en");

/** "1,234 runs": the same on the server and in the browser, whatever their languages. */
export function formatCount(count: number, one: string, many: string): string {
  return `${COUNT.format(count)} ${count === 1 ? one : many}`;
}

/** Goes to another address of the list; `pending` while the server renders it. */
export function useListNavigation(): { navigate: (href: string) => void; pending: boolean } {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return { navigate: (href) => startTransition(() => router.push(href, { scroll: false })), pending };
}

/**
 * A search box showing the list's current search (`undefined`: none): Enter
 * or its button searches, and an empty search (`undefined`) lists everything
 * again. A new current search starts the box afresh.
 */
export function ListSearch({ search, ...box }: { label: string; placeholder: string; search: string | undefined; onSearch: (search: string | undefined) => void }) {
  return <SearchBox key={search ?? ""} value={search ?? ""} {...box} />;
}

function SearchBox({ label, placeholder, value, onSearch }: { label: string; placeholder: string; value: string; onSearch: (search: string | undefined) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  return (
    <form
      role="search"
      aria-label={label}
      className="flex min-w-0 flex-1 basis-64 items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim() || undefined);
      }}
    >
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input id={id} type="search" className={`${CONTROL_CLASS} min-w-0 flex-1 py-1.5`} placeholder={placeholder} value={text} maxLength={200} onChange={(event) => setText(event.target.value)} />
      <Button type="submit">Search</Button>
    </form>
  );
}

/** A labelled select of a list's filter or order. */
export function ListSelect({ label, value, onChange, children }: { label: string; value: string; onChange: (value: string) => void; children: ReactNode }) {
  return (
    <label className="flex min-w-0 items-center gap-2 text-sm text-muted max-sm:w-full max-sm:justify-between">
      <span className="whitespace-nowrap">{label}</span>
      <select className={`${CONTROL_CLASS} w-auto min-w-0 py-1.5`} value={value} onChange={(event) => onChange(event.target.value)}>
        {children}
      </select>
    </label>
  );
}

/** How many match, announced when it changes; what is refreshing beside it. */
export function ListCount({ text, busy }: { text: string; busy: boolean }) {
  return (
    <p className="flex items-center gap-2 text-sm font-medium text-foreground" aria-live="polite" data-testid="list-count">
      <span>{text}</span>
      {busy ? (
        <span aria-hidden="true" className="size-3.5 animate-spin rounded-full border-2 border-line-strong border-t-accent" />
      ) : null}
    </p>
  );
}

/** Links to the first page (when this is not it) and the next one (when there is one). */
export function ListPager({ label, firstHref, nextHref }: { label: string; firstHref: string | null; nextHref: string | null }) {
  if (firstHref === null && nextHref === null) return null;
  const linkClass =
    "inline-flex h-9 items-center rounded-md border border-line-strong bg-surface px-3.5 text-sm font-medium text-foreground shadow-card hover:bg-surface-sunken";
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-3">
      {firstHref !== null ? (
        <Link href={firstHref} scroll className={linkClass}>
          <span aria-hidden="true">«&nbsp;</span>First page
        </Link>
      ) : (
        <span />
      )}
      {nextHref !== null ? (
        <Link href={nextHref} scroll className={linkClass}>
          Next page<span aria-hidden="true">&nbsp;»</span>
        </Link>
      ) : null}
    </nav>
  );
}
