/** A route id not yet used by `taken` (and never "default"): route_1, route_2, … */
export function nextRouteId(taken: readonly string[]): string {
  for (let index = 1; ; index += 1) {
    const id = `route_${index}`;
    if (!taken.includes(id)) return id;
  }
}

/** Moves the item at `from` to `to`, returning a new array. */
export function move<Item>(items: readonly Item[], from: number, to: number): Item[] {
  if (to < 0 || to >= items.length || from === to) return [...items];
  const result = [...items];
  const [item] = result.splice(from, 1);
  result.splice(to, 0, item!);
  return result;
}
