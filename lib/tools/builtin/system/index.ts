import type { Tool } from "../../tool";

export function systemTools(): Tool[] {
  return [];
}
