import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { AgentNode } from "../definition";

/** What building a model needs of an agent node. */
export type AgentModelConfig = Pick<AgentNode, "provider" | "model" | "baseUrl">;

/** Builds the language model an agent talks to; injectable so tests can use a mock model. */
export type AgentModelFactory = (config: AgentModelConfig, apiKey: string | undefined) => LanguageModel;

/**
 * The model of an agent node through the AI SDK providers. The API key is
 * resolved by the caller at call time and only ever travels in the request's
 * headers. OpenAI is used through its Chat Completions API, like the
 * OpenAI-compatible servers, so the conversation the studio stores is the same
 * shape for every provider.
 *
 * @example
 *   createAgentModel({ provider: "openai_compatible", model: "llama3.1", baseUrl: "http://127.0.0.1:11434/v1" }, undefined)
 */
export const createAgentModel: AgentModelFactory = (config, apiKey) => {
  switch (config.provider) {
    case "openai":
      return createOpenAI({ apiKey: apiKey ?? "", ...(config.baseUrl ? { baseURL: config.baseUrl } : {}) }).chat(config.model);
    case "anthropic":
      return createAnthropic({ apiKey: apiKey ?? "", ...(config.baseUrl ? { baseURL: config.baseUrl } : {}) })(config.model);
    case "openai_compatible":
      if (!config.baseUrl) throw new Error("An OpenAI-compatible server needs its base URL, e.g. http://127.0.0.1:11434/v1 for Ollama.");
      return createOpenAICompatible({
        name: "openai_compatible",
        baseURL: config.baseUrl,
        ...(apiKey ? { apiKey } : {}),
        includeUsage: true,
        // Ollama, vLLM and LM Studio take a JSON schema as the response format: the Architect's answers are then
        // generated within the catalog's schema (lib/architect/draft-schema.ts), not merely asked to be JSON.
        supportsStructuredOutputs: true,
      }).chatModel(config.model);
  }
};
