"use client";

import { useFormatTime } from "@/components/ui/use-format-time";
import Link from "next/link";
import { PanelSection } from "@/components/editor/inspector/panel-section";
import { useWebhookListening } from "@/components/editor/webhook-listening";
import { Button } from "@/components/ui/button";
import { AddressLine, CurlExample } from "./address-parts";
import { CapturedRequest } from "./captured-request";
import { HOOK_PREFIXES, hookPath, type WebhookMapping, type WebhookNode } from "./definition";


interface TestDeliveryProps {
  node: WebhookNode;
  origin: string;
  inputNames: readonly string[];
  onMap: (entry: WebhookMapping) => void;
}

/**
 * Listening for one test delivery: the draft is saved, the test address
 * answers until the listen ends, and what arrived is shown for mapping.
 * Nothing here outside an editor (no listen to hold).
 */
export function TestDeliverySection({ node, origin, inputNames, onMap }: TestDeliveryProps) {
  const listening = useWebhookListening(node.id);
  const formatTime = useFormatTime();
  if (!listening) return null;
  const { state, listen, stop } = listening;
  const path = "listen" in state ? state.listen.path : hookPath(node);
  const testUrl = `${origin}${HOOK_PREFIXES.test}${path}`;
  const listenButton = (again: boolean) => (
    <Button size="sm" variant="primary" onClick={() => void listen()}>
      {again ? "Listen again" : "Listen for a test delivery"}
    </Button>
  );

  /** A listen that ended without a delivery: why, and a way to listen again. */
  const ended = (message: string, alert: boolean) => (
    <div className="space-y-2">
      <p role={alert ? "alert" : "status"} className={alert ? "text-xs font-medium text-caution" : "text-xs text-muted"}>
        {message}
      </p>
      {listenButton(true)}
    </div>
  );

  return (
    <PanelSection
      title="Test delivery"
      description="Listen, then send one request to the test address: it runs this draft (saved first) instead of the published version, and shows what arrived so you can map its fields."
    >
      {state.status === "idle" ? listenButton(false) : null}
      {state.status === "starting" ? (
        <Button size="sm" variant="primary" disabled>
          Saving and listening…
        </Button>
      ) : null}
      {state.status === "listening" ? (
        <div className="space-y-2">
          <p role="status" className="text-xs font-medium text-foreground">
            Listening for one delivery (version {state.listen.version}) until {formatTime(state.listen.expiresAt, "clock")}.
          </p>
          <AddressLine url={testUrl} copyLabel="Copy the test address" testId="webhook-test-url" />
          <CurlExample node={node} url={testUrl} what="the test curl command" />
          <Button size="sm" onClick={stop}>
            Stop listening
          </Button>
        </div>
      ) : null}
      {state.status === "expired" ? ended(`Nothing arrived before ${formatTime(state.listen.expiresAt, "clock")}; the test address is closed again.`, false) : null}
      {state.status === "failed" ? ended(state.message, true) : null}
      {state.status === "captured" ? (
        <div className="space-y-3">
          <p role="status" className="text-xs text-foreground">
            Captured <span className="font-mono">{state.result.capture.method}</span> at {formatTime(state.result.capture.receivedAt, "clock")}
            {state.result.runId ? (
              <>
                {" "}
                and ran version {state.listen.version}:{" "}
                <Link href={`/runs/${state.result.runId}`} className="font-medium text-accent underline">
                  open the run
                </Link>
              </>
            ) : null}
            .
          </p>
          {state.result.problem ? (
            <p role="alert" className="text-xs font-medium text-caution">
              No run started: {state.result.problem}
            </p>
          ) : null}
          <CapturedRequest capture={state.result.capture} inputNames={inputNames} mapping={node.mapping} onMap={onMap} />
          {listenButton(true)}
        </div>
      ) : null}
    </PanelSection>
  );
}
