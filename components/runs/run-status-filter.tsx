"use client";

import { RUN_STATUS_FILTERS, type RunStatusFilterValue } from "@/lib/run-view/run-status-filters";

/** A segmented control of run statuses: a group of toggle buttons, one pressed. */
export function RunStatusFilter({ value, onChange }: { value: RunStatusFilterValue; onChange: (value: RunStatusFilterValue) => void }) {
  return (
    <div role="group" aria-label="Filter runs by status" className="inline-flex flex-wrap gap-1 rounded-lg border border-line bg-surface-sunken p-1">
      {RUN_STATUS_FILTERS.map((option) => {
        const pressed = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(option.value)}
            className={`rounded-md px-3 py-1 text-sm font-medium transition ${
              pressed ? "bg-surface text-foreground shadow-card" : "text-muted hover:text-foreground"
            }`}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
