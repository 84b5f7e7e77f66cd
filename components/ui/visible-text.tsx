import { markHiddenCharacters, type MarkReason, type VisibleTextOptions } from "@/lib/tools/contracts";

const MARK_TITLE: Record<MarkReason, string> = {
  bidi: "a direction-changing character: it can make text read differently from how it runs",
  invisible: "an invisible character",
  control: "a control character",
  "blank-run": "a long run of blanks, shown by its length",
};

const TONE = {
  light: "bg-caution-soft text-caution ring-1 ring-caution/40",
  dark: "bg-[#5c2b12] text-[#ffcfb0] ring-1 ring-[#ff9b5e]/60",
} as const;

/**
 * Text with every hidden or direction-changing character shown as a marked
 * token (⟨U+202E⟩, ⟨2000 spaces⟩), in the order it is stored and run.
 */
export function VisibleText({ text, options, tone = "light" }: { text: string; options?: VisibleTextOptions; tone?: keyof typeof TONE }) {
  const { segments } = markHiddenCharacters(text, options);
  return (
    <>
      {segments.map((segment, index) =>
        segment.kind === "text" ? (
          segment.text
        ) : (
          <mark key={index} data-hidden-mark={segment.reason} title={MARK_TITLE[segment.reason]} className={`mx-px rounded-sm px-0.5 font-mono font-semibold ${TONE[tone]}`}>
            {segment.text}
          </mark>
        ),
      )}
    </>
  );
}
