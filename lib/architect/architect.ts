/**
 * The Architect: from a goal in words to a checked draft. Each round streams
 * the model's answer (constrained by the catalog's schema, draft-schema.ts),
 * parses it, turns it into a workflow and runs the studio's own validator on
 * it; the problems the model can fix go back to it, with their paths, for at
 * most `maxRounds` rounds. What is left is returned with the draft, never
 * hidden, and nothing is saved or run here: the caller shows a proposal.
 * The model's answer is data throughout: parsed as JSON, checked by schemas.
 */
import { Output, streamText, type LanguageModel, type ModelMessage } from "ai";
import type { WorkflowProblem } from "@/lib/contracts/workflow-problem";
import type { WorkflowDefinition, WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { draftToDefinition } from "./draft-definition";
import { planProblems, schemaProblems, validationProblems, type DraftProblem } from "./draft-problems";
import { MAX_GOAL_CHARACTERS } from "@/lib/contracts/architect";
import { draftSchema, type Draft, type DraftVocabulary } from "./draft-schema";
import { goalMessage, repairMessage, systemPrompt } from "./prompt";

/** Rounds at most: the first answer and two repairs. Each costs a model call; a draft not sound by then is shown with its problems. */
export const DEFAULT_MAX_ROUNDS = 3;
/** How often a streaming draft is handed on: often enough to watch it grow, rarely enough not to flood a slow client. */
const PARTIAL_EVERY_MS = 150;

export interface ArchitectRequest {
  goal: string;
  /** The workflow to start from (the editor's current graph); absent: a new workflow. */
  current?: WorkflowDefinition;
  vocabulary: DraftVocabulary;
  model: LanguageModel;
  /** The studio's validator over a whole workflow: every problem at once. */
  validate: (definition: WorkflowDefinitionInput) => Promise<WorkflowProblem[]>;
  maxRounds?: number;
  signal?: AbortSignal;
}

export interface ArchitectUsage {
  inputTokens: number;
  outputTokens: number;
}

export type ArchitectEvent =
  /** A model call began (1 is the first answer, each later one a repair). */
  | { type: "round"; round: number }
  /** The answer so far, as it streams: parts of the plan and the nodes appear as the model writes them. */
  | { type: "partial"; round: number; draft: unknown }
  /** A round's answer, checked: the draft when it parsed, the workflow it makes, what is wrong. */
  | { type: "checked"; round: number; draft: Draft | null; definition: WorkflowDefinitionInput | null; problems: DraftProblem[] }
  /** The end: the last draft that parsed (with its workflow and problems) after `rounds` rounds. */
  | { type: "done"; draft: Draft | null; definition: WorkflowDefinitionInput | null; problems: DraftProblem[]; rounds: number; usage: ArchitectUsage }
  /** The model could not be asked (no answer, a provider error, stopped): said plainly, the last partial answer kept to look at. */
  | { type: "failed"; error: string; partial: unknown; usage: ArchitectUsage };

/** The goal is empty or longer than MAX_GOAL_CHARACTERS: refused before any model call. */
export class GoalRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GoalRefused";
  }
}

export function checkGoal(goal: string): string {
  const trimmed = goal.trim();
  if (trimmed === "") throw new GoalRefused("goal: say what the workflow should do");
  if (trimmed.length > MAX_GOAL_CHARACTERS) {
    throw new GoalRefused(`goal: at most ${MAX_GOAL_CHARACTERS.toLocaleString("en-US")} characters (this one has ${trimmed.length.toLocaleString("en-US")}); say it shorter`);
  }
  return trimmed;
}

export async function* draftWorkflow(request: ArchitectRequest): AsyncGenerator<ArchitectEvent> {
  const goal = checkGoal(request.goal);
  const schema = draftSchema(request.vocabulary);
  const maxRounds = Math.max(1, request.maxRounds ?? DEFAULT_MAX_ROUNDS);
  const messages: ModelMessage[] = [{ role: "user", content: goalMessage(goal, request.current) }];
  const usage: ArchitectUsage = { inputTokens: 0, outputTokens: 0 };
  let best: { draft: Draft; definition: WorkflowDefinitionInput; problems: DraftProblem[] } | null = null;
  // Shown when no round's answer parsed: why not.
  let lastProblems: DraftProblem[] = [];
  let lastPartial: unknown = null;
  let rounds = 0;

  for (let round = 1; round <= maxRounds; round += 1) {
    rounds = round;
    yield { type: "round", round };
    let text: string;
    // streamText reports an error in the stream (a provider's 500, a cut connection) here rather than by throwing.
    let streamError: unknown = null;
    try {
      const result = streamText({
        model: request.model,
        system: systemPrompt(request.vocabulary),
        messages,
        output: Output.object({ schema }),
        abortSignal: request.signal,
        // A provider error ends the round at once: retrying is the person's choice (Draft again), not a silent loop.
        maxRetries: 0,
        onError: ({ error }) => {
          streamError ??= error;
        },
      });
      for await (const partial of throttled(result.partialOutputStream, PARTIAL_EVERY_MS)) {
        lastPartial = partial;
        yield { type: "partial", round, draft: partial };
      }
      text = await result.text;
      if (streamError !== null) throw streamError;
      const spent = await result.usage;
      usage.inputTokens += spent.inputTokens ?? 0;
      usage.outputTokens += spent.outputTokens ?? 0;
    } catch (error) {
      // The stream's own error says what went wrong; the one thrown after it only that no output came.
      yield { type: "failed", error: describeFailure(streamError ?? error, request.signal), partial: lastPartial, usage };
      return;
    }

    const checked = await check(text, schema, request);
    yield { type: "checked", round, ...checked };
    lastProblems = checked.problems;
    if (checked.draft && checked.definition && (!best || modelProblems(checked.problems) <= modelProblems(best.problems))) {
      best = { draft: checked.draft, definition: checked.definition, problems: checked.problems };
    }
    const forModel = checked.problems.filter((problem) => problem.for === "model");
    if (forModel.length === 0 && checked.draft) break;
    if (round === maxRounds) break;
    messages.push({ role: "assistant", content: text }, { role: "user", content: repairMessage(forModel) });
  }
  yield { type: "done", draft: best?.draft ?? null, definition: best?.definition ?? null, problems: best?.problems ?? lastProblems, rounds, usage };
}

/**
 * The newest of `source`'s values at most once per `everyMs`, and the newest
 * again once `everyMs` has passed with nothing newer: a model that pauses
 * mid-answer (thinking, or a slow server) still shows all it wrote so far.
 */
export async function* throttled<Value>(source: AsyncIterable<Value>, everyMs: number): AsyncGenerator<Value> {
  const iterator = source[Symbol.asyncIterator]();
  const tick = Symbol("tick");
  let pending = iterator.next();
  let handedAt = 0;
  let unsent: { value: Value } | null = null;
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waitMs: number | null = unsent ? Math.max(0, handedAt + everyMs - Date.now()) : null;
      const next: IteratorResult<Value> | typeof tick =
        waitMs === null ? await pending : await Promise.race([pending, new Promise<typeof tick>((resolve) => (timer = setTimeout(() => resolve(tick), waitMs)))]);
      clearTimeout(timer);
      if (next === tick) {
        handedAt = Date.now();
        const { value } = unsent!;
        unsent = null;
        yield value;
        continue;
      }
      if (next.done) break;
      pending = iterator.next();
      if (Date.now() - handedAt >= everyMs) {
        handedAt = Date.now();
        unsent = null;
        yield next.value;
      } else {
        unsent = { value: next.value };
      }
    }
    if (unsent) yield unsent.value;
  } finally {
    // Left early (the client went away): a read still under way settles with the aborted call, unobserved.
    // Not awaited: a stream's return() may wait for that read, and a caller that left must not wait with it.
    pending.catch(() => {});
    void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}

const modelProblems = (problems: readonly DraftProblem[]) => problems.filter((problem) => problem.for === "model").length;

/** One answer checked: JSON, then the schema, then the plan's needs and the studio's validator on the workflow it makes. */
async function check(
  text: string,
  schema: ReturnType<typeof draftSchema>,
  request: ArchitectRequest,
): Promise<{ draft: Draft | null; definition: WorkflowDefinitionInput | null; problems: DraftProblem[] }> {
  let answer: unknown;
  try {
    answer = JSON.parse(stripFence(text));
  } catch (error) {
    return { draft: null, definition: null, problems: [{ path: "(answer)", nodeId: null, message: `not JSON (${error instanceof Error ? error.message : String(error)}); answer with one JSON object`, for: "model" }] };
  }
  const parsed = schema.safeParse(answer);
  if (!parsed.success) return { draft: null, definition: null, problems: schemaProblems(parsed.error, answer) };
  const draft = parsed.data as Draft;
  const definition = draftToDefinition(draft, request.vocabulary.tools, request.current);
  const problems = [...planProblems(draft, request.vocabulary.tools), ...validationProblems(await request.validate(definition))];
  return { draft, definition, problems };
}

/** A model that wraps its JSON in a Markdown fence still answered JSON. */
function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n```\s*$/.exec(text);
  return fenced ? fenced[1]! : text;
}

function describeFailure(error: unknown, signal: AbortSignal | undefined): string {
  if (signal?.aborted) return "Stopped: nothing was applied. The draft so far is kept to look at.";
  const message = error instanceof Error ? error.message : String(error);
  return `The model could not be asked: ${message}`;
}
