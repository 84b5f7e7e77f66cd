import type { Tool } from "../../tool";

export function databaseTools(): Tool[] {
  return [];
}
