import type { InputField } from "@/lib/workflow/definition";

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Per field index, what is wrong with its name (empty when nothing is). */
export function inputFieldErrors(fields: readonly Pick<InputField, "name">[]): Record<number, string> {
  const errors: Record<number, string> = {};
  const counts = new Map<string, number>();
  for (const field of fields) counts.set(field.name, (counts.get(field.name) ?? 0) + 1);
  fields.forEach((field, index) => {
    if (field.name === "") errors[index] = "Give the input a name, e.g. city.";
    else if (!FIELD_NAME.test(field.name)) errors[index] = "A name is a letter or _ followed by letters, digits or _ (at most 64), e.g. start_date.";
    else if ((counts.get(field.name) ?? 0) > 1) errors[index] = `Another input is already named "${field.name}".`;
  });
  return errors;
}

/** A name not yet used: input_1, input_2, … */
export function nextInputName(fields: readonly Pick<InputField, "name">[]): string {
  const names = new Set(fields.map((field) => field.name));
  for (let index = 1; ; index += 1) if (!names.has(`input_${index}`)) return `input_${index}`;
}

/** Turns a default typed into the form into the field's type; "" means no default. */
export function coerceDefault(type: InputField["type"], raw: string | boolean): InputField["default"] {
  if (raw === "") return undefined;
  if (type === "boolean") return raw === true || raw === "true";
  if (typeof raw !== "string") return undefined;
  if (type === "number") {
    const number = Number(raw);
    return Number.isFinite(number) ? number : undefined;
  }
  return raw;
}
