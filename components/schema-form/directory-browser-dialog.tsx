"use client";

import { useCallback, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNotice, Spinner } from "@/components/ui/page-header";
import { ToolIcon } from "@/components/tool-icon";
import { api, ApiError } from "@/lib/client/api";
import type { DirectoryListing } from "@/lib/contracts/directory-listing";

interface DirectoryBrowserDialogProps {
  /** Where to start; the first browse root when empty or not browsable. */
  startPath: string;
  onClose: () => void;
  onChoose: (path: string) => void;
}

/** The root's path, then one crumb per folder below it. */
function breadcrumbs(listing: DirectoryListing): { label: string; path: string }[] {
  const separator = listing.root.includes("\\") ? "\\" : "/";
  const below = listing.path.slice(listing.root.length).split(/[\\/]/).filter(Boolean);
  const crumbs = [{ label: listing.root, path: listing.root }];
  let current = listing.root;
  for (const part of below) {
    current = current.endsWith(separator) ? `${current}${part}` : `${current}${separator}${part}`;
    crumbs.push({ label: part, path: current });
  }
  return crumbs;
}

function isAbsolutePath(text: string): boolean {
  return text.startsWith("/") || /^[A-Za-z]:[\\/]/.test(text) || text.startsWith("\\\\");
}

function join(parent: string, name: string): string {
  const separator = parent.includes("\\") ? "\\" : "/";
  return parent.endsWith(separator) ? `${parent}${name}` : `${parent}${separator}${name}`;
}

interface FetchResult {
  listing: DirectoryListing | null;
  error: string | null;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function fetchListing(path: string | undefined, hidden: boolean, fallBack: boolean): Promise<FetchResult> {
  const query = new URLSearchParams({ hidden: String(hidden) });
  if (path) query.set("path", path);
  try {
    return { listing: await api<DirectoryListing>(`/api/fs/directories?${query.toString()}`), error: null };
  } catch (caught) {
    if (!(fallBack && caught instanceof ApiError && [403, 404, 422].includes(caught.status))) return { listing: null, error: message(caught) };
    // The typed folder cannot be shown: start from the first root instead, and say why.
    try {
      const listing = await api<DirectoryListing>(`/api/fs/directories?hidden=${String(hidden)}`);
      return { listing, error: `${caught.message} Showing the first folder you may browse instead.` };
    } catch (second) {
      return { listing: null, error: message(second) };
    }
  }
}

/**
 * Lists the folders the server may show, one level at a time, and hands
 * back the one chosen. Render it only while open: it loads when mounted.
 */
export function DirectoryBrowserDialog({ startPath, onClose, onChoose }: DirectoryBrowserDialogProps) {
  const [listing, setListing] = useState<DirectoryListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [showHidden, setShowHidden] = useState(false);

  const show = useCallback((result: FetchResult) => {
    if (result.listing) setListing(result.listing);
    setError(result.error);
    setLoading(false);
  }, []);

  useEffect(() => {
    // Mounted when the dialog opens: start where the field points, else (empty, or a relative path that names no
    // place yet) quietly at the first folder the studio may show: the home folder unless STUDIO_BROWSE_ROOTS says otherwise.
    let cancelled = false;
    const start = startPath.trim();
    void fetchListing(isAbsolutePath(start) ? start : undefined, false, true).then((result) => {
      if (!cancelled) show(result);
    });
    return () => {
      cancelled = true;
    };
  }, [startPath, show]);

  const load = (path: string | undefined, hidden: boolean) => {
    setLoading(true);
    void fetchListing(path, hidden, false).then(show);
  };
  const go = (path: string) => load(path, showHidden);

  return (
    <Dialog
      open
      onClose={onClose}
      title="Choose a folder"
      description="Only folders the studio may show are listed."
      wide
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={!listing || loading} onClick={() => listing && onChoose(listing.path)}>
            Choose this folder
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        {listing && listing.roots.length > 1 ? (
          <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted">
            <span>Start from:</span>
            {listing.roots.map((root) => (
              <Button key={root} size="sm" variant={root === listing.root ? "primary" : "secondary"} onClick={() => go(root)}>
                {root}
              </Button>
            ))}
          </div>
        ) : null}
        {listing ? (
          <p className="text-sm">
            <span className="text-muted">Current folder: </span>
            <code className="font-mono text-xs [overflow-wrap:anywhere]" data-testid="current-folder">
              {listing.path}
            </code>
          </p>
        ) : null}
        {listing ? (
          <div className="flex flex-wrap items-center gap-2">
            <Button
              size="sm"
              disabled={!listing.parent || loading}
              onClick={() => listing.parent && go(listing.parent)}
              aria-label="Up to the parent folder"
              title={listing.parent ? `Up to ${listing.parent}` : "This is the top of the folders the studio may show (STUDIO_BROWSE_ROOTS)."}
            >
              ↑ Up
            </Button>
            <nav aria-label="Folder path" className="min-w-0 flex-1">
              <ol className="flex flex-wrap items-center gap-1 text-sm">
                {breadcrumbs(listing).map((crumb, index, all) => (
                  <li key={crumb.path} className="flex items-center gap-1">
                    {index > 0 ? <span className="text-muted" aria-hidden="true">/</span> : null}
                    {index === all.length - 1 ? (
                      <span aria-current="location" className="font-medium">
                        {crumb.label}
                      </span>
                    ) : (
                      <button type="button" className="rounded text-accent hover:underline focus-visible:ring-2 focus-visible:ring-accent" onClick={() => go(crumb.path)}>
                        {crumb.label}
                      </button>
                    )}
                  </li>
                ))}
              </ol>
            </nav>
          </div>
        ) : null}
        {error ? <ErrorNotice title="That folder cannot be shown">{error}</ErrorNotice> : null}
        <div className="h-72 overflow-y-auto rounded-md border border-line bg-surface-sunken/40">
          {loading ? (
            <div className="p-4">
              <Spinner label="Listing folders" />
            </div>
          ) : listing && listing.directories.length === 0 ? (
            <p className="p-4 text-sm text-muted">This folder has no sub-folders. Choose it{listing.parent ? ", or go up" : ""}.</p>
          ) : listing ? (
            <ul aria-label={`Folders in ${listing.path}`} className="divide-y divide-line">
              {listing.directories.map((name) => (
                <li key={name}>
                  <button
                    type="button"
                    className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-surface focus-visible:bg-accent-soft focus-visible:outline-none"
                    onClick={() => go(join(listing.path, name))}
                  >
                    <ToolIcon icon="folder" className="size-4 shrink-0 text-muted" />
                    <span className="truncate">{name}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
          <label className="inline-flex items-center gap-2">
            <input
              type="checkbox"
              checked={showHidden}
              onChange={(event) => {
                setShowHidden(event.target.checked);
                load(listing?.path, event.target.checked);
              }}
            />
            Show hidden folders
          </label>
          {listing?.truncated ? <span>Showing the first {listing.directories.length} folders.</span> : null}
          {listing && !listing.parent ? <span>The top of the folders the studio may show; STUDIO_BROWSE_ROOTS widens them.</span> : null}
        </div>
      </div>
    </Dialog>
  );
}
