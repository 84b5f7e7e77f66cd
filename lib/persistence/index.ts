// The persistence layer's public API (server-only: it opens SQLite files and PostgreSQL connections).
export { databaseFilePath, databaseUrl, dataFolder } from "./data-folder";
export { CONNECTION_PRAGMAS, closeDatabase, disconnectDatabase, getDatabase, openDatabase, prepareDatabase, providerOf, type StudioDatabase } from "./database";
export { DATABASE_PROVIDERS, databaseProvider, displayDatabaseUrl, isPostgresUrl, type DatabaseProvider } from "./database-provider";
export {
  ConflictError,
  MigrationError,
  NotFoundError,
  SecretDecryptionError,
  SecretKeyError,
  SecretKeyMismatchError,
} from "./errors";
export { newId } from "./ids";
export { applyMigrations } from "./migrations";
export { createSecretBox, SECRET_KEY_BYTES, type SecretBox } from "./secret-box";
export { openSecretBox, SECRET_KEY_CHECK, secretContext, secretKeyFilePath, type SecretKeyOptions } from "./secret-key";
export {
  createSecret,
  deleteSecret,
  getSecretBox,
  listSecrets,
  replaceSecret,
  resolveSecret,
  secretResolver,
  type SecretMetadata,
} from "./secret-store";
export {
  createWorkflow,
  deleteWorkflow,
  duplicateWorkflow,
  getVersion,
  getWorkflow,
  everyWorkflow,
  newestDefinitions,
  listVersions,
  saveWorkflow,
  type SaveWorkflowOptions,
  type WorkflowDetail,
  type WorkflowFields,
  type WorkflowVersionDetail,
  type WorkflowVersionSummary,
} from "./workflow-store";
export { listWorkflowChoices, listWorkflows, type WorkflowSummary } from "./workflow-list";
