import type { WriteGrant } from "@/lib/tools";
import type { ApprovalDecisionInput, ApprovalRequest, GrantOrigin, RunCommit, RunStore } from "@/lib/workflow/run-types";
import { retryWhileDatabaseUnavailable } from "./database-unavailable";

/** How long an engine call waits for a database server that cannot be reached before it fails (default). */
export const WAIT_FOR_DATABASE_MS = 30_000;

export interface DatabaseWaitingOptions {
  windowMs?: number;
  log?: (message: string) => void;
}

/**
 * The engine's store on a database server (PostgreSQL): every call that
 * meets the server unreachable (a restart, a cut connection) waits for it to
 * answer again, for up to 30 s, instead of failing the step or the run.
 *
 * A worker whose step finished during a restart would otherwise fail its
 * commit and leave the step "interrupted by a restart" although only the
 * database had restarted; an approval asked for at that moment would fail the
 * step with the server's "terminating connection". Every call here is safe to
 * send again: commits are fenced by their drive and by the events' unique
 * sequence numbers, approvals are opened by their key, the rest are reads or
 * idempotent updates.
 */
export class DatabaseWaitingRunStore implements RunStore {
  private readonly windowMs: number;
  private readonly log: (message: string) => void;

  constructor(
    private readonly store: RunStore,
    options: DatabaseWaitingOptions = {},
  ) {
    this.windowMs = options.windowMs ?? WAIT_FOR_DATABASE_MS;
    this.log = options.log ?? ((message) => console.warn(`[studio] ${message}`));
  }

  private waiting<T>(what: string, work: () => Promise<T>): Promise<T> {
    return retryWhileDatabaseUnavailable(work, { windowMs: this.windowMs, what, log: this.log });
  }

  loadRun(runId: string) {
    return this.waiting(`loading run ${runId}`, () => this.store.loadRun(runId));
  }
  unfinishedRunIds() {
    return this.waiting("listing unfinished runs", () => this.store.unfinishedRunIds());
  }
  commit(runId: string, commit: RunCommit) {
    return this.waiting(`run ${runId}'s changes`, () => this.store.commit(runId, commit));
  }
  claimRun(runId: string, driver: string) {
    return this.waiting(`claiming run ${runId}`, () => this.store.claimRun(runId, driver));
  }
  openApproval(request: ApprovalRequest & { digest: string }) {
    return this.waiting(`run ${request.runId}'s approval`, () => this.store.openApproval(request));
  }
  getApproval(id: string) {
    return this.waiting(`reading approval ${id}`, () => this.store.getApproval(id));
  }
  decideApproval(id: string, decision: ApprovalDecisionInput) {
    return this.waiting(`deciding approval ${id}`, () => this.store.decideApproval(id, decision));
  }
  supersedeApproval(id: string) {
    return this.waiting(`withdrawing approval ${id}`, () => this.store.supersedeApproval(id));
  }
  cancelApprovals(runId: string) {
    return this.waiting(`cancelling run ${runId}'s approvals`, () => this.store.cancelApprovals(runId));
  }
  announcedApprovals(runId: string) {
    return this.waiting(`reading run ${runId}'s approvals`, () => this.store.announcedApprovals(runId));
  }
  approvalStanding(approvalId: string) {
    return this.waiting(`reading approval ${approvalId}'s votes`, () => this.store.approvalStanding(approvalId));
  }
  nodesAwaitingDecision(runId: string) {
    return this.waiting(`reading run ${runId}'s approvals`, () => this.store.nodesAwaitingDecision(runId));
  }
  listGrants(workflowId: string) {
    return this.waiting(`reading workflow ${workflowId}'s grants`, () => this.store.listGrants(workflowId));
  }
  loadAgentCheckpoint(runId: string, nodeId: string) {
    return this.waiting(`loading run ${runId}'s agent state`, () => this.store.loadAgentCheckpoint(runId, nodeId));
  }
  saveAgentCheckpoint(runId: string, nodeId: string, turn: number, messages: string) {
    return this.waiting(`saving run ${runId}'s agent state`, () => this.store.saveAgentCheckpoint(runId, nodeId, turn, messages));
  }
  addGrant(workflowId: string, grant: WriteGrant, origin: GrantOrigin) {
    return this.waiting(`saving workflow ${workflowId}'s grant`, () => this.store.addGrant(workflowId, grant, origin));
  }
}
