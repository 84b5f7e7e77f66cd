// The agent node's runtime: free of React, Next and Prisma; the engine wires it to the run.
export { AgentFailure, runAgent } from "./run-agent";
export type { AgentEventSink, AgentOutcome, AgentRunOptions, PreparedCall, RecordedCall } from "./run-agent";
export { AGENT_CONTROL_TOOLS, agentToolsFor } from "./agent-tools";
export type { AgentTool } from "./agent-tools";
export { createAgentModel } from "./agent-model";
export type { AgentModelConfig, AgentModelFactory } from "./agent-model";
export { MemoryCheckpointStore } from "./agent-checkpoint";
export type { AgentCallResult, AgentCheckpoint, AgentCheckpointState, AgentCheckpointStore, AgentToolCall } from "./agent-checkpoint";
export { TextBatcher } from "./text-batcher";
