// Free of imports on purpose: the editor's client bundle reads it without pulling in the tool framework.

/** Most turns an agent node may take unless its builder says otherwise. */
export const DEFAULT_AGENT_MAX_TURNS = 20;
