/** A node as Go to node… lists it: its card's accessible name (title, what it is, its problems; lib/flow/card-name.ts). */
export interface NodeChoice {
  id: string;
  name: string;
}

const WORD_BREAK = /[^\p{L}\p{N}]+/u;

/**
 * The nodes in whose name every word typed begins a word, in any order and
 * case, in the workflow's order: "num 3" finds "Step number 3" and "Step
 * number 30", not "Step number 13"; "file write" finds "Write a File".
 */
export function matchingNodes(nodes: readonly NodeChoice[], query: string): readonly NodeChoice[] {
  const typed = query.toLowerCase().split(WORD_BREAK).filter(Boolean);
  if (typed.length === 0) return nodes;
  return nodes.filter((node) => {
    const words = node.name.toLowerCase().split(WORD_BREAK);
    return typed.every((start) => words.some((word) => word.startsWith(start)));
  });
}
