import type { Tool } from "../../tool";

export function dataTools(): Tool[] {
  return [];
}
