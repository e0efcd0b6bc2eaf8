import { hashApiKey } from '../common/api-key-hash.js';
import {
  parseAllowedHosts,
  parseOrigins,
  parsePublicBaseUrl,
  parseTrustProxy,
  type TrustProxy,
} from './http-settings.js';
import { isLoopbackHost } from './loopback.js';
import { parseDatabaseUrl, parseReadUrls, type DatabaseTarget, type ReadReplicaTargets } from './database-url.js';
import { ConfigError } from './config-error.js';
import { text, type Env } from './env.js';
import { parseTelegram, type TelegramConfig } from './telegram-config.js';

/** Everything the service reads from its environment, validated once at boot. */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseTarget;
  /** PostgreSQL standbys that serve the reads that may be a little behind (DATABASE_READ_URL); none by default. */
  readonly readReplicas: ReadReplicaTargets;
  /** Bound to an address other machines reach: no single-user mode, and no start without any API key. */
  readonly requireApiKeys: boolean;
  /** Named SHA-256 hashes of the keys in API_KEYS (the keys themselves are not kept); empty means single-user mode. */
  readonly apiKeys: ReadonlyArray<ConfiguredApiKey>;
  readonly llm: LlmConfig;
  /**
   * The models a conversation may choose (LLM_MODELS, comma-separated); empty: the model
   * server's own list (GET /v1/models) when it answers, else the default model alone.
   */
  readonly llmModels: readonly string[];
  /** How a new conversation is titled: `first-message` (its first message, without Markdown) or `model` (the model writes a title after the first reply). */
  readonly titleMode: 'first-message' | 'model';
  readonly historyWindow: number;
  /** The whole context of a turn (system prompts, summary, history, message) stays within this many tokens. */
  readonly contextTokenBudget: number;
  /** `rolling`: what leaves the window is folded into a running summary by the model. */
  readonly summaryMode: 'rolling' | 'off';
  /** Long-term memories: `off` (neither read nor written), `read` (read into turns), `on` (read, and written by the tools). */
  readonly memoryMode: 'off' | 'read' | 'on';
  /** The memories a turn is given cost at most this many tokens (part of the context budget). */
  readonly memoryTokenBudget: number;
  /** Whether turns recall matching messages of the actor's other conversations (RECALL_MODE), and within how many tokens. */
  readonly recallMode: 'off' | 'on';
  readonly recallTokenBudget: number;
  /** MAX_MEMORIES_PER_ACTOR: how many long-term memories one actor may keep (0: no limit). */
  readonly maxMemoriesPerActor: number;
  /** MAX_AGENTS_PER_ACTOR: how many agents one actor may have (0: no limit). */
  readonly maxAgentsPerActor: number;
  readonly systemPrompt: string | undefined;
  readonly maxMessageChars: number;
  /** A reply (its text, and each tool call's arguments) is cut at this many characters. */
  readonly maxReplyChars: number;
  /** A reply is cut when it has been generated for this long, whatever the model still sends. */
  readonly maxReplyMs: number;
  readonly bodyLimitBytes: number;
  /** Largest body of POST /api/conversations/import (authenticated callers only): exports are large. */
  readonly importBodyLimitBytes: number;
  /** Largest decompressed entry of a ZIP uploaded to POST /api/imports (zip bombs). */
  readonly importUnzippedLimitBytes: number;
  /** How long SIGTERM waits for in-flight chat turns before closing the database. */
  readonly shutdownGraceMs: number;
  /** How long a SQLite write waits for another process's write lock before it fails as busy. */
  readonly sqliteBusyTimeoutMs: number;
  /** Processes serving the port (WORKERS, PostgreSQL only): each a whole instance of the service. */
  readonly workers: number;
  /** Origins allowed to call the API from a browser (CORS); empty: none. */
  readonly corsOrigins: readonly string[];
  /**
   * Host names answered besides the loopback ones (normalized, no port). Single-user mode answers
   * only loopback names and these; with API keys, set, it limits the Host too; empty: no extra name.
   */
  readonly allowedHosts: readonly string[];
  /** Requests per minute per API key (or per address without one); 0: no limit. */
  readonly rateLimitPerMinute: number;
  /** Failed authentications per minute per client address, past which the address gets 429; 0: no limit. */
  readonly authFailuresPerMinute: number;
  /** Reads of shared conversations (GET /api/shared/:token, no key needed) per minute per client address; 0: no limit. */
  readonly sharedReadsPerMinute: number;
  /** The address people reach the service at (no trailing slash), for absolute share links; null: links are relative (`/s/<token>`). */
  readonly publicBaseUrl: string | null;
  /** Express's `trust proxy`: false (the socket's address is the client's), a hop count, or the proxies' addresses. */
  readonly trustProxy: TrustProxy;
  /** 0: no limit. */
  readonly maxConversationsPerActor: number;
  /** 0: no limit. */
  readonly maxMessagesPerConversation: number;
  /** `text` for people, `json` (one object per line) for log collectors. */
  readonly logFormat: 'text' | 'json';
  /** The least severe level written; `debug` also shows Nest's start-up lines (modules, routes). */
  readonly logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** Bearer token for GET /metrics; null: /metrics answers loopback callers only. */
  readonly metricsToken: string | null;
  /** A reply's generator must renew its lease within this; past it the reply is closed as failed. */
  readonly replyLeaseMs: number;
  /** How often a streaming reply's text is saved (what followers on other instances see). */
  readonly streamFlushMs: number;
  /**
   * How long a model call may take to return once its reply was cut or stopped: aborting the call
   * ends it at once with every port and server we know; this bounds the rest (a transport that
   * does not end the body, a proxy that ignores the abort), so a reply always ends, its lease is
   * let go, and the thread takes its next turn.
   */
  readonly modelStopGraceMs: number;
  /** How often a follower reads a reply anyway while the database wakes it on every save (FOLLOW_POLL_MS). */
  readonly followPollMs: number;
  /** Reply text a server-sent event stream may hold back for a client that is not reading; past it the stream is dropped. */
  readonly sseMaxBufferBytes: number;
  /** A server-sent event stream whose client reads nothing for this long is dropped. */
  readonly sseStallMs: number;
  /** Server-sent event streams one actor may have open at once, in this process; 0: no limit. */
  readonly maxStreamsPerActor: number;
  /** Replies being generated at once per actor, and in all, in this process (0: no limit). */
  readonly maxGenerationsPerActor: number;
  readonly maxGenerations: number;
  /** The Telegram bot; null when TELEGRAM_BOT_TOKEN is unset (the surface is off). */
  readonly telegram: TelegramConfig | null;
  /** Conversations not updated for this many days are deleted in the background; null: kept forever. */
  readonly retentionDays: number | null;
}

interface ConfiguredApiKey {
  readonly name: string;
  readonly keyHash: Buffer;
}

type LlmConfig =
  /** `chosen`: LLM_MODEL=echo asked for it, rather than no model being configured. */
  | { readonly provider: 'echo'; readonly chosen: boolean }
  | {
      readonly provider: 'openai';
      readonly baseUrl: string | undefined;
      readonly apiKey: string;
      readonly model: string;
      readonly timeoutMs: number;
      readonly maxRetries: number;
    };

export const APP_CONFIG = Symbol('APP_CONFIG');

export function loadConfig(env: Env = process.env): AppConfig {
  // "[::1]" is how people write IPv6 in URLs; listen() wants it bare.
  const database = parseDatabaseUrl(text(env, 'DATABASE_URL') ?? 'sqlite:data/chat.sqlite');
  const host = (text(env, 'HOST') ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
  const apiKeys = parseApiKeys(text(env, 'API_KEYS'));
  const llm = parseLlm(env);
  const replyLeaseMs = integer(env, 'REPLY_LEASE_MS', 15_000, 1_000, 600_000);
  const streamFlushMs = integer(env, 'STREAM_FLUSH_MS', 200, 10, 10_000);
  // The lease is renewed on a flush tick once a third of it has passed: ticks must come well within that.
  if (streamFlushMs * 4 > replyLeaseMs) {
    throw new ConfigError(
      `STREAM_FLUSH_MS (${streamFlushMs}) must be at most a quarter of REPLY_LEASE_MS (${replyLeaseMs})`,
    );
  }
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host,
    requireApiKeys: !isLoopbackHost(host),
    database,
    readReplicas: parseReadUrls(
      text(env, 'DATABASE_READ_URL'),
      database,
      integer(env, 'DATABASE_READ_MAX_LAG_MS', 2_000, 100, 3_600_000),
    ),
    apiKeys,
    llm,
    llmModels: parseModels(text(env, 'LLM_MODELS')),
    titleMode: oneOf(env, 'TITLE_MODE', ['first-message', 'model'] as const, 'first-message'),
    historyWindow: integer(env, 'HISTORY_WINDOW', 20, 0, 1000),
    contextTokenBudget: integer(env, 'CONTEXT_TOKEN_BUDGET', 8000, 100, 10_000_000),
    summaryMode: summaryMode(env, llm),
    memoryMode: oneOf(env, 'MEMORY_MODE', ['off', 'read', 'on'] as const, 'on'),
    memoryTokenBudget: integer(env, 'MEMORY_TOKEN_BUDGET', 1000, 0, 1_000_000),
    recallMode: oneOf(env, 'RECALL_MODE', ['off', 'on'] as const, 'on'),
    recallTokenBudget: integer(env, 'RECALL_TOKEN_BUDGET', 1500, 0, 1_000_000),
    maxMemoriesPerActor: integer(env, 'MAX_MEMORIES_PER_ACTOR', 10_000, 0, 100_000_000),
    maxAgentsPerActor: integer(env, 'MAX_AGENTS_PER_ACTOR', 200, 0, 1_000_000),
    systemPrompt: text(env, 'SYSTEM_PROMPT'),
    maxMessageChars: integer(env, 'MAX_MESSAGE_CHARS', 32_000, 1, 1_000_000),
    // At most what an import reads back as a reply (portability/export-document.ts), so every export imports.
    maxReplyChars: integer(env, 'MAX_REPLY_CHARS', 100_000, 1_000, 1_000_000),
    maxReplyMs: integer(env, 'LLM_MAX_REPLY_MS', 600_000, 1_000, 86_400_000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    importBodyLimitBytes: integer(env, 'IMPORT_BODY_LIMIT_BYTES', 64 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    importUnzippedLimitBytes: integer(
      env,
      'IMPORT_UNZIPPED_LIMIT_BYTES',
      1024 * 1024 * 1024,
      1024,
      16 * 1024 * 1024 * 1024,
    ),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 30_000, 0, 600_000),
    sqliteBusyTimeoutMs: integer(env, 'SQLITE_BUSY_TIMEOUT_MS', 5_000, 0, 600_000),
    workers: workersFor(env, database),
    replyLeaseMs,
    streamFlushMs,
    modelStopGraceMs: integer(env, 'MODEL_STOP_GRACE_MS', 2_000, 10, 60_000),
    followPollMs: integer(env, 'FOLLOW_POLL_MS', 2_000, 10, 600_000),
    sseMaxBufferBytes: integer(env, 'SSE_MAX_BUFFER_BYTES', 1024 * 1024, 16 * 1024, 1024 * 1024 * 1024),
    sseStallMs: integer(env, 'SSE_STALL_MS', 30_000, 100, 3_600_000),
    maxStreamsPerActor: integer(env, 'MAX_STREAMS_PER_ACTOR', 8, 0, 100_000),
    maxGenerationsPerActor: integer(env, 'MAX_GENERATIONS_PER_ACTOR', 32, 0, 100_000),
    maxGenerations: integer(env, 'MAX_GENERATIONS', 2_000, 0, 1_000_000),
    corsOrigins: parseOrigins(text(env, 'CORS_ORIGINS')),
    allowedHosts: parseAllowedHosts(text(env, 'ALLOWED_HOSTS')),
    // On a public address the API is rate limited unless told otherwise.
    rateLimitPerMinute: integer(
      env,
      'RATE_LIMIT_PER_MINUTE',
      isLoopbackHost(host) && apiKeys.length === 0 ? 0 : 600,
      0,
      1_000_000,
    ),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 30, 0, 1_000_000),
    sharedReadsPerMinute: integer(env, 'SHARED_READS_PER_MINUTE', 60, 0, 1_000_000),
    publicBaseUrl: parsePublicBaseUrl(text(env, 'PUBLIC_BASE_URL')),
    trustProxy: parseTrustProxy(text(env, 'TRUST_PROXY')),
    maxConversationsPerActor: integer(env, 'MAX_CONVERSATIONS_PER_ACTOR', 10_000, 0, 100_000_000),
    maxMessagesPerConversation: integer(env, 'MAX_MESSAGES_PER_CONVERSATION', 100_000, 0, 100_000_000),
    logFormat: oneOf(env, 'LOG_FORMAT', ['text', 'json'] as const, 'text'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['error', 'warn', 'log', 'debug', 'verbose'] as const, 'log'),
    metricsToken: parseMetricsToken(text(env, 'METRICS_TOKEN')),
    telegram: parseTelegram(env),
    retentionDays: optionalInteger(env, 'RETENTION_DAYS', 1, 36_500),
  };
}

function parseLlm(env: Env): LlmConfig {
  // OPENAI_BASE_URL is the SDK's own name for it; accepting it keeps the echo decision honest.
  const baseUrlName = text(env, 'LLM_BASE_URL') ? 'LLM_BASE_URL' : 'OPENAI_BASE_URL';
  const baseUrl = text(env, baseUrlName);
  const apiKey = text(env, 'LLM_API_KEY') ?? text(env, 'OPENAI_API_KEY');
  const model = text(env, 'LLM_MODEL');
  // Checked even when the echo model is chosen, so a typo shows before switching models.
  if (baseUrl && !/^https?:\/\/[^\s]+$/.test(baseUrl)) {
    throw new ConfigError(`${baseUrlName} must be an http(s) URL, got "${baseUrl}"`);
  }
  const timeoutMs = integer(env, 'LLM_TIMEOUT_MS', 60_000, 100, 3_600_000);
  const maxRetries = integer(env, 'LLM_MAX_RETRIES', 2, 0, 10);
  // No address and no key: nothing to talk to, so the offline echo model answers.
  if (model === 'echo' || (!baseUrl && !apiKey)) return { provider: 'echo', chosen: model === 'echo' };
  return {
    provider: 'openai',
    baseUrl,
    // Local servers (Ollama, llama.cpp, vLLM) accept any key; the SDK insists on one.
    apiKey: apiKey ?? 'not-needed',
    model: model ?? 'gpt-4o-mini',
    timeoutMs,
    maxRetries,
  };
}

/** Model names as the model column holds them (at most 200 characters), without duplicates. */
function parseModels(raw: string | undefined): string[] {
  if (!raw) return [];
  const names = raw.split(',').map((entry) => entry.trim());
  for (const name of names) {
    if (!name || name.length > 200 || /[\s\u0000-\u001f]/.test(name)) {
      throw new ConfigError(
        `LLM_MODELS must be comma-separated model names (each 1-200 characters, no spaces), got "${raw}"`,
      );
    }
  }
  if (names.length > 100) throw new ConfigError(`LLM_MODELS names ${names.length} models; at most 100`);
  return [...new Set(names)];
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const value = text(env, name);
  if (value === undefined) return fallback;
  if (!values.includes(value as T))
    throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${value}"`);
  return value as T;
}

/** Summaries need a model that can summarize: on by default only with a real one. */
function summaryMode(env: Env, llm: LlmConfig): 'rolling' | 'off' {
  const value = text(env, 'SUMMARY_MODE');
  if (value === undefined) return llm.provider === 'openai' ? 'rolling' : 'off';
  if (value !== 'rolling' && value !== 'off')
    throw new ConfigError(`SUMMARY_MODE must be "rolling" or "off", got "${value}"`);
  return value;
}

function parseApiKeys(raw: string | undefined): AppConfig['apiKeys'] {
  if (!raw) return [];
  const seenNames = new Set<string>();
  const seenKeys = new Set<string>();
  return raw.split(',').map((entry) => {
    const at = entry.indexOf(':');
    const name = entry.slice(0, at).trim();
    const key = entry.slice(at + 1).trim();
    // The message never repeats the key itself: it is a secret.
    if (at <= 0 || !key) throw new ConfigError('API_KEYS entries must look like name:key');
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
      throw new ConfigError(`API_KEYS name "${name}" may only use letters, digits, "_", "." and "-"`);
    }
    if (key.length < 8) throw new ConfigError(`API_KEYS key for "${name}" is shorter than 8 characters`);
    if (/\s/.test(key)) throw new ConfigError(`API_KEYS key for "${name}" contains whitespace`);
    if (seenNames.has(name)) throw new ConfigError(`API_KEYS names "${name}" twice`);
    if (seenKeys.has(key)) throw new ConfigError(`API_KEYS gives the same key to two names`);
    seenNames.add(name);
    seenKeys.add(key);
    return { name, keyHash: hashApiKey(key) };
  });
}

/** A secret of its own (not an API key: a scraper needs no actor); short ones could be guessed. */
function parseMetricsToken(token: string | undefined): string | null {
  if (token === undefined) return null;
  if (token.length < 16 || /\s/.test(token))
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters, without spaces');
  return token;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** WORKERS: several processes share the database only on PostgreSQL (SQLite's writes and wake-ups are one process's). */
function workersFor(env: Env, database: AppConfig['database']): number {
  const workers = integer(env, 'WORKERS', 1, 1, 64);
  if (workers > 1 && database.kind === 'sqlite') {
    throw new ConfigError(
      `WORKERS=${workers} needs PostgreSQL (DATABASE_URL=postgres://…): on SQLite one process serves the database file`,
    );
  }
  return workers;
}

/** An integer setting that is off (null) unless set. */
function optionalInteger(env: Env, name: string, min: number, max: number): number | null {
  return text(env, name) === undefined ? null : integer(env, name, min, min, max);
}
