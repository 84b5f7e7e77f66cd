/**
 * Costs and token counts as people read them. A cost of a cent or more shows
 * cents ("$3.41"); less shows the micro-dollars that make it ("$0.00003"),
 * so a cheap run never reads as free.
 */

export function formatCost(micros: number): string {
  const negative = micros < 0 ? "-" : "";
  const whole = Math.abs(Math.round(micros));
  const dollars = Math.floor(whole / 1_000_000);
  const fraction = String(whole % 1_000_000).padStart(6, "0");
  if (whole === 0) return "$0.00";
  if (whole >= 10_000) {
    // Cents, rounded half up on the whole micro-dollars (no floating point).
    const cents = Math.floor((whole + 5_000) / 10_000);
    return `${negative}$${groupThousands(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, "0")}`;
  }
  return `${negative}$${dollars}.${fraction.replace(/0+$/, "")}`;
}

/** 950 -> "950", 12_345 -> "12.3 k", 1_234_567 -> "1.2 M". */
export function formatTokenCount(tokens: number): string {
  if (tokens < 10_000) return groupThousands(tokens);
  if (tokens < 1_000_000) return `${trimmed(tokens / 1_000)} k`;
  if (tokens < 1_000_000_000) return `${trimmed(tokens / 1_000_000)} M`;
  return `${trimmed(tokens / 1_000_000_000)} B`;
}

function trimmed(value: number): string {
  return value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, "");
}

function groupThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
