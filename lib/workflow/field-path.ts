/** A zod issue's path as a problem's field: `settings.root`, `routes[2].value`. */
export function fieldName(prefix: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : `${text}.${String(key)}`), prefix);
}
