// Types for scripts/test-leftovers.mjs (plain JavaScript so that scripts/test.sh runs it on any Node).
export declare const SERVER_MARKER: "STUDIO_TEST_SERVER";
export declare const RUN_ID_PATTERN: RegExp;
export declare function newRunId(): string;
export declare function databasePrefix(runId: string): string;
export declare function folderPrefix(kind: string, runId: string): string;
export interface MarkedProcess {
  pid: number;
  pgid: number;
  command: string;
}
export interface Leftovers {
  processes: MarkedProcess[];
  databases: string[];
  folders: string[];
}
export declare function markedProcesses(runId: string): MarkedProcess[];
export declare function processesWithEnvironment(name: string, value: string): MarkedProcess[];
export declare function runDatabases(runId: string): Promise<string[]>;
export declare function runFolders(runId: string): string[];
export declare function findLeftovers(runId: string): Promise<Leftovers>;
export declare function describeLeftovers(leftovers: Leftovers): string[];
export declare function reapLeftovers(runId: string): Promise<Leftovers>;
export declare function takeReapedNotes(runId: string): string[];
