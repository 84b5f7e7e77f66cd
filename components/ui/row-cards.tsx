import type { ComponentPropsWithoutRef, ReactNode } from "react";

/**
 * A list that is a table from Tailwind's `sm` (40rem) up and, below it (a
 * phone), a column of cards, one per row, its actions on their own line
 * inside the screen. A table that keeps its columns on a phone is wider than
 * the screen, and its actions, last, end up out of sight behind a sideways
 * scroll that nothing hints at. The markup stays one table, so a screen
 * reader reads the same rows and columns at every width and nothing is
 * rendered twice; only the layout changes. Shared by the runs, secrets and
 * workflows lists.
 */

/** How a cell sits in its card: the title line, a detail in the line below, or the actions line. */
export type CardPart = "title" | "detail" | "actions";

const PART_CLASS: Record<CardPart, string> = {
  title: "max-sm:w-full max-sm:text-base",
  detail: "max-sm:text-sm",
  // Actions sit on a line of their own, at the card's start, wrapping when they must.
  actions: "max-sm:mt-1 max-sm:w-full max-sm:border-t max-sm:border-line max-sm:pt-2",
};

/** A column of a {@link RowCardTable}, for {@link columnsOf}: its header and its width from `sm` up. */
export interface RowCardColumn {
  label: string;
  /** Read by screen readers only (the actions column, whose buttons say what they do). */
  labelHidden?: boolean;
  /** Classes of the header cell: its padding, alignment and the widths it shows from. */
  headClassName: string;
  /** Classes of the `<col>`: its width. */
  widthClassName?: string;
}

/**
 * A settings table's columns: `[label, width class?]` each, the first padded
 * from the card's left edge, then an "Actions" column (its label for screen
 * readers only) of `actionsWidth` at the right edge.
 */
export function labelledColumns(columns: readonly (readonly [label: string, widthClassName?: string])[], actionsWidth: string): RowCardColumn[] {
  return [
    ...columns.map(([label, widthClassName], index) => ({ label, headClassName: index === 0 ? "py-2.5 pl-5 pr-3" : "px-3 py-2.5", widthClassName })),
    { label: "Actions", labelHidden: true, headClassName: "py-2.5 pl-3 pr-5", widthClassName: actionsWidth },
  ];
}

/** A {@link RowCardTable}'s `columns` and `head` from one list of columns, so each column is written once. */
export function columnsOf(columns: readonly RowCardColumn[]): { columns: ReactNode; head: ReactNode } {
  return {
    columns: (
      <colgroup className="max-sm:hidden">
        {columns.map((column) => (
          <col key={column.label} className={column.widthClassName} />
        ))}
      </colgroup>
    ),
    head: columns.map((column) => (
      <th key={column.label} scope="col" className={`${column.headClassName} font-medium`}>
        {column.labelHidden ? <span className="sr-only">{column.label}</span> : column.label}
      </th>
    )),
  };
}

interface RowCardTableProps {
  /** Read by screen readers as the table's name. */
  caption: string;
  /** The header cells (`<th scope="col">`); kept for screen readers on a phone, where each cell says its own label. */
  head: ReactNode;
  /** A `<colgroup>`, used from `sm` up. */
  columns?: ReactNode;
  /** Classes for the `<table>` from `sm` up ("sm:min-w-[52rem] table-fixed"). */
  tableClassName?: string;
  children: ReactNode;
}

export function RowCardTable({ caption, head, columns, tableClassName = "", children }: RowCardTableProps) {
  return (
    // The box scrolls a table wider than itself (not the page) from sm up; `relative` keeps the hidden texts of the far
    // columns inside it. Below sm the cards need no box: each is one.
    <div className="sm:relative sm:overflow-x-auto sm:rounded-xl sm:border sm:border-line sm:bg-surface sm:shadow-card" data-row-cards>
      <table className={`w-full text-left max-sm:block ${tableClassName}`}>
        <caption className="sr-only">{caption}</caption>
        {columns}
        <thead className="border-b border-line bg-surface-sunken/60 text-xs font-medium uppercase tracking-wide text-muted max-sm:sr-only">
          <tr>{head}</tr>
        </thead>
        <tbody className="max-sm:block max-sm:space-y-3">{children}</tbody>
      </table>
    </div>
  );
}

/** One row, a line above it from `sm` up (a row that belongs to it, such as a warning, goes without); below `sm` a card whose cells flow as lines. */
export function RowCard({ className = "", ...props }: ComponentPropsWithoutRef<"tr">) {
  return (
    <tr
      className={`border-line sm:border-t sm:first:border-t-0 max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-1.5 max-sm:rounded-xl max-sm:border max-sm:border-line max-sm:bg-surface max-sm:px-4 max-sm:py-3 max-sm:shadow-card ${className}`}
      {...props}
    />
  );
}

type CardCellProps = {
  part: CardPart;
  /** Said before the value on a phone, where no column header is above it ("Version"). */
  label?: string;
  /** A row header (`<th scope="row">`) rather than a data cell. */
  rowHeader?: boolean;
} & ComponentPropsWithoutRef<"td">;

/** A cell; below `sm` its padding goes (the card has it) and it takes its part's place in the card. */
export function CardCell({ part, label, rowHeader = false, className = "", children, ...props }: CardCellProps) {
  const Cell = rowHeader ? "th" : "td";
  return (
    <Cell {...(rowHeader ? { scope: "row" } : {})} className={`max-sm:block max-sm:min-w-0 max-sm:p-0! ${PART_CLASS[part]} ${className}`} {...props}>
      {label ? <span className="text-muted sm:hidden">{label} </span> : null}
      {children}
    </Cell>
  );
}

/** The actions' own box: in a row at the cell's end from `sm` up, and at the card's start, wrapping, below it. */
export function CardActions({ children, className = "" }: { children: ReactNode; className?: string }) {
  return <div className={`flex flex-wrap items-center justify-end gap-1 max-sm:justify-start max-sm:gap-2 ${className}`}>{children}</div>;
}
