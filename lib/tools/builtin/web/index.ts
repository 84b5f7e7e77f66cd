import type { Tool } from "../../tool";

export function webTools(): Tool[] {
  return [];
}
