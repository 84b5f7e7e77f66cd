import type { Tool } from "../../tool";

export function filesystemTools(): Tool[] {
  return [];
}
