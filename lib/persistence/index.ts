// The persistence layer's public API (server-only: it opens SQLite files).
export { databaseFilePath, databaseUrl, dataFolder } from "./data-folder";
export { CONNECTION_PRAGMAS, closeDatabase, getDatabase, openDatabase, type StudioDatabase } from "./database";
export {
  ConflictError,
  MigrationError,
  NotFoundError,
  SecretDecryptionError,
  SecretKeyError,
  SecretKeyMismatchError,
} from "./errors";
export { newId } from "./ids";
export { defaultMigrationsFolder, migrate, readMigrations, type MigrateOptions, type MigrateResult, type Migration } from "./migrate";
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
  listVersions,
  listWorkflows,
  saveWorkflow,
  type SaveWorkflowOptions,
  type WorkflowDetail,
  type WorkflowSummary,
  type WorkflowVersionDetail,
  type WorkflowVersionSummary,
} from "./workflow-store";
