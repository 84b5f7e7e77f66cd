-- CreateIndex
CREATE INDEX "AuditEntry_target_action_idx" ON "AuditEntry"("target", "action");
