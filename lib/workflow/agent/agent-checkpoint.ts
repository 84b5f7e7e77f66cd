import type { ModelMessage } from "ai";

/** One call the model asked for, as stored while its turn is in progress. */
export interface AgentToolCall {
  callId: string;
  /** The name the model used (see AgentTool.name). */
  name: string;
  input: unknown;
}

/** What came back from one call, as the model reads it. */
export interface AgentCallResult {
  content: string;
  isError: boolean;
  /** Set when the call was `finish`: the agent's answer. */
  finish?: string;
}

/**
 * An agent's conversation and state after a turn (or part of one). It is
 * everything a resumed agent needs to go on without asking the model again
 * for what it already answered.
 */
export interface AgentCheckpointState {
  /** The conversation as sent to the model (the system prompt is not part of it). */
  messages: ModelMessage[];
  /** In plan mode: whether a person approved the agent's plan. Always true in other modes. */
  planApproved: boolean;
  /** A plan the model presented that waits for a person's decision. */
  planPending: string | null;
  /** The calls of the turn in progress and the results that came back so far, by call id. */
  pending: { calls: AgentToolCall[]; results: Record<string, AgentCallResult> } | null;
  /** The agent's answer, once it finished. */
  answer: string | null;
}

export interface AgentCheckpoint {
  /** How many model calls the agent has made. */
  turn: number;
  state: AgentCheckpointState;
}

/** Where an agent step keeps its checkpoints; the engine stores them in the run's database. */
export interface AgentCheckpointStore {
  /** The latest checkpoint, or `null` when the agent has not completed a turn yet. */
  load(): Promise<AgentCheckpoint | null>;
  /** Stores the state after `turn`, replacing what was stored for that turn. */
  save(checkpoint: AgentCheckpoint): Promise<void>;
}

/** Keeps checkpoints in memory: for tests and scripts. */
export class MemoryCheckpointStore implements AgentCheckpointStore {
  readonly saved: AgentCheckpoint[] = [];

  async load(): Promise<AgentCheckpoint | null> {
    const last = this.saved.at(-1);
    return last ? structuredClone(last) : null;
  }

  async save(checkpoint: AgentCheckpoint): Promise<void> {
    this.saved.push(structuredClone(checkpoint));
  }
}
