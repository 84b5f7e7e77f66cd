"use client";

import { DataTable } from "@/components/ui/data-table";
import { TableSection } from "@/components/ui/table-section";
import Link from "next/link";
import { useState } from "react";
import { PageHeader } from "@/components/ui/page-header";
import type { EvaluationDetail, EvaluationResult } from "@/lib/contracts/evaluation";
import { compareEvaluations } from "@/lib/evaluations/comparison";
import { ComparisonChart } from "./comparison-chart";
import { ShownValue } from "./shown-value";
import { percent, pointsDifference, VerdictBadge } from "./verdict-badge";

/** "Version 2 (draft)": how an evaluation is named on the comparison page; a third word tells apart two of one version. */
function labelOf(evaluation: EvaluationDetail, other: EvaluationDetail): string {
  const base = `Version ${evaluation.version}${evaluation.draft ? " (draft)" : ""}`;
  return evaluation.version === other.version ? `${base}, ${evaluation.createdAt.slice(0, 16).replace("T", " ")}` : base;
}

/**
 * Two evaluations side by side, A then B: each scorer's averages with the
 * difference, a chart of them, and every row's two outputs with their
 * verdicts, filtered to the rows whose verdict changed when asked. From a
 * row, its runs open.
 */
export function EvaluationComparison({ a, b }: { a: EvaluationDetail; b: EvaluationDetail }) {
  const comparison = compareEvaluations(a, b);
  const [changedOnly, setChangedOnly] = useState(false);
  const [labelA, labelB] = [labelOf(a, b), labelOf(b, a)];
  const base = `/workflows/${encodeURIComponent(a.workflowId)}/evaluations`;
  const rows = changedOnly ? comparison.rows.filter((row) => row.changed) : comparison.rows;
  return (
    <div className="space-y-6">
      <PageHeader title={`${labelA} vs ${labelB}`} description={`On ${a.datasetName}: each scorer's average, and every row's two outputs with their verdicts.`} />
      {comparison.problem ? (
        <p role="alert" className="rounded-lg border border-caution/40 bg-caution-soft px-4 py-3 text-sm text-caution">
          {comparison.problem}
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <DataTable
          caption="Each scorer's average in the two evaluations, and the difference"
          testId="comparison-averages"
          columns={[
            "Scorer",
            <Link key="a" href={`${base}/${encodeURIComponent(a.id)}`} className="hover:underline">
              {labelA}
            </Link>,
            <Link key="b" href={`${base}/${encodeURIComponent(b.id)}`} className="hover:underline">
              {labelB}
            </Link>,
            "Difference",
          ]}
        >
          {comparison.scorers.map((scorer) => {
            const better = scorer.difference !== null && scorer.difference > 0;
            const worse = scorer.difference !== null && scorer.difference < 0;
            return (
              <tr key={scorer.name}>
                <th scope="row" className="px-3 py-2 text-left font-medium">
                  {scorer.name}
                </th>
                <td className="px-3 py-2 tabular-nums">{percent(scorer.averageA)}</td>
                <td className="px-3 py-2 tabular-nums">{percent(scorer.averageB)}</td>
                <td className={`px-3 py-2 font-medium tabular-nums ${better ? "text-safe" : worse ? "text-caution" : "text-muted"}`}>
                  {pointsDifference(scorer.difference)}
                  <span className="sr-only">{better ? " (better)" : worse ? " (worse)" : ""}</span>
                </td>
              </tr>
            );
          })}
        </DataTable>
        <ComparisonChart scorers={comparison.scorers} labelA={labelA} labelB={labelB} />
      </div>
      <TableSection
        titleId="rows-title"
        title="Rows"
        controls={
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-[var(--color-accent)]" checked={changedOnly} onChange={(event) => setChangedOnly(event.target.checked)} />
            Only rows whose verdict changed ({comparison.changedCount})
          </label>
        }
      >
        <DataTable caption="Each row's inputs and expected output, and what each evaluation's run gave with its verdicts" columns={["Row", "Inputs and expected", labelA, labelB]}>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={4} className="px-3 py-6 text-center text-muted">
                No row&apos;s verdict changed.
              </td>
            </tr>
          ) : null}
          {rows.map((row) => (
            <tr key={row.position} className={`align-top ${row.changed ? "bg-caution-soft/40" : ""}`} data-testid="comparison-row">
              <th scope="row" className="px-3 py-2 text-left font-medium tabular-nums">
                {row.position}
                {row.changed ? <span className="block text-xs font-medium text-caution">changed</span> : null}
              </th>
              <td className="space-y-1 px-3 py-2">
                <ShownValue value={row.inputs} />
                <p className="text-xs text-muted">
                  expected: <ShownValue value={row.expected} empty="none" />
                </p>
              </td>
              <ResultCell result={row.a} verdicts={row.verdicts.map((each) => each.a)} names={comparison.scorers.map((scorer) => scorer.name)} label={labelA} />
              <ResultCell result={row.b} verdicts={row.verdicts.map((each) => each.b)} names={comparison.scorers.map((scorer) => scorer.name)} label={labelB} />
            </tr>
          ))}
        </DataTable>
      </TableSection>
    </div>
  );
}

function ResultCell({ result, verdicts, names, label }: { result: EvaluationResult | null; verdicts: (EvaluationResult["verdicts"][number] | null)[]; names: string[]; label: string }) {
  if (!result) return <td className="px-3 py-2 text-muted">–</td>;
  return (
    <td className="space-y-1.5 px-3 py-2">
      <ShownValue value={result.status === "error" ? result.error : result.output} empty={result.status === "scored" ? "nothing" : "…"} />
      {verdicts.map((verdict, index) => (
        <VerdictBadge key={names[index]} name={names[index]!} verdict={verdict} />
      ))}
      {result.runId ? (
        <Link href={`/runs/${encodeURIComponent(result.runId)}`} className="block text-xs font-medium text-accent hover:underline" aria-label={`Open the run of row ${result.position} in ${label}`}>
          Open the run
        </Link>
      ) : null}
    </td>
  );
}
