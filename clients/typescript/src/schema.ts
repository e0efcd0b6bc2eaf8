/**
 * Generated from docs/openapi.json by openapi-typescript (npm run client:generate).
 * Do not edit: change the API, then run npm run openapi && npm run client:generate.
 */
export interface paths {
    "/api/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's agents, by name, a page at a time
         * @description Pages of `limit` agents (200 unless set: all of them under the default MAX_AGENTS_PER_ACTOR); follow nextCursor for the next.
         */
        get: operations["listAgents"];
        put?: never;
        /**
         * Create an agent
         * @description A conversation started with the agent's id gets its system prompt, model settings and tools. Answers 201 with a Location header.
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One agent
         * @description Another caller's agent answers 404, like a missing one.
         */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        /**
         * Delete an agent
         * @description An agent with conversations is only deleted with ?conversations=detach (they stay, without an agent) or ?conversations=delete (they are deleted too); otherwise 409 says how many there are.
         */
        delete: operations["deleteAgent"];
        options?: never;
        head?: never;
        /**
         * Change some fields of an agent (null clears one)
         * @description Only the fields sent change; null clears an optional field (the name cannot be cleared).
         */
        patch: operations["updateAgent"];
        trace?: never;
    };
    "/api/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a message and get the reply
         * @description Starts a conversation (no conversationId) or resumes one, replays its recent history to the model, stores both messages and returns the reply. The user message is stored before the model is called.
         */
        post: operations["chat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a message and stream the reply
         * @description Same turn as POST /api/chat, answered as server-sent events. Errors found before the stream starts (validation, authentication, ownership, a reply already in progress) are ordinary JSON answers. If the client disconnects, the reply is still generated and stored.
         */
        post: operations["chatStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's conversations, most recently updated first, or the best matches of a search (q)
         * @description Archived conversations are left out unless archived=true; pinnedFirst=true lists pinned ones first. With q, results are ranked, carry a snippet and the best message, and come in one page.
         */
        get: operations["listConversations"];
        put?: never;
        /**
         * Create an empty conversation, optionally with an agent and an initial state
         * @description For a client that wants the id before the first message, or a conversation that starts with a state. memory=false makes a temporary chat: no long-term memory is read or written. Answers 201 with a Location header.
         */
        post: operations["createConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A conversation with its state, threads and messages in order (one thread's with ?thread=)
         * @description The main thread unless ?thread= names another, its messages along the active path in order (limit: only the newest). Another caller's conversation answers 404, like a missing one.
         */
        get: operations["getConversation"];
        put?: never;
        post?: never;
        /**
         * Delete a conversation and all its messages
         * @description Its threads, messages, summaries and share links go with it, at once and for good.
         */
        delete: operations["deleteConversation"];
        options?: never;
        head?: never;
        /**
         * Rename, archive, pin or re-tag a conversation
         * @description Only the fields sent change; its messages and updatedAt stay as they are.
         */
        patch: operations["updateConversation"];
        trace?: never;
    };
    "/api/conversations/{id}/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the next turn of a thread would send the model, with token counts (the new message aside)
         * @description Shows the budget, every part with its tokens, and what was left out, to see why the model "forgot" something.
         */
        get: operations["previewContext"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a conversation: the versioned JSON export (importable) or a Markdown transcript
         * @description JSON version 2 (the default) holds every message of every branch with its parent, and each thread's active leaf; ?version=1 writes the linear format of the active paths. Markdown shows the active paths.
         */
        get: operations["exportConversation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/fork": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a new conversation from the history up to a message
         * @description Copies every message of every thread up to the seq of fromMessageId (that message included), with the threads, summaries, agent, state and tags, into a new conversation titled "<title> (fork)". 409 while that message is being generated.
         */
        post: operations["forkConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the active path from the newest backwards (before=seq for older ones)
         * @description For long conversations: load the last 50, then pass nextBefore to scroll up. Pages along the active path, through its own index; /tree pages every branch.
         */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Pin or unpin a message
         * @description A pinned message reaches the model on every turn while it is on its thread's active path, whatever the window or the summary, counted in the budget: pinning answers 400 (context_over_budget) when the next turn could not fit it; 409 for a message that is not a complete user or assistant message.
         */
        patch: operations["pinMessage"];
        trace?: never;
    };
    "/api/conversations/{id}/messages/{messageId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a reply being generated (from any instance)
         * @description The text generated so far is kept with status "cancelled". Answers the message once it has stopped (a finished message is returned unchanged).
         */
        post: operations["cancelMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages/{messageId}/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask a user message again in other words, on a new branch
         * @description A new user message beside this one (its sibling, with the same parent), then its reply, as a turn: the new branch becomes the thread's active path, and only it is replayed to the model. The edited message and its answers stay, selectable.
         */
        post: operations["editMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages/{messageId}/edit/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit a user message, streaming the new answer
         * @description A new user message beside this one (its sibling, with the same parent), then its reply, as a turn: the new branch becomes the thread's active path, and only it is replayed to the model. The edited message and its answers stay, selectable. Server-sent events: `conversation` {conversationId, userMessageId, messageId, title, created, agentId, thread} once the question is stored; `reasoning` {text} for each piece of a reasoning model's thinking; `delta` {text} for each piece of the reply; then `done` {messageId, reply, status, reason, model, usage, and reasoning, reasoningMs, toolCalls when there are some} once the reply is stored, or `error` {statusCode, code, message, messageId, partial}.
         */
        post: operations["editMessageStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages/{messageId}/select": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a message's branch its thread's active path, down to its newest leaf
         * @description Switches between versions (‹ 2/3 ›): the next turn continues there and only it is sent to the model. 409 while a reply of the thread is being generated.
         */
        post: operations["selectBranch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages/{messageId}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a reply as it is generated (works from any instance)
         * @description Sends the text stored so far as a first `delta`, then each addition, then `done` {messageId, reply, status, model, usage} or `error` {statusCode, message, messageId, partial}. A finished message is sent at once.
         */
        get: operations["followMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer a thread's last question again
         * @description After a failure, or to get another answer: a new reply beside the one it replaces (its sibling), which becomes the thread's active path. The earlier answer stays, selectable, and is listed in the new reply's versions (never replayed to the model).
         */
        post: operations["regenerateReply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/regenerate/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Regenerate, streaming the new answer
         * @description Server-sent events: `conversation` {conversationId, userMessageId, messageId, title, created, agentId, thread} once the question is stored; `reasoning` {text} for each piece of a reasoning model's thinking; `delta` {text} for each piece of the reply; then `done` {messageId, reply, status, reason, model, usage, and reasoning, reasoningMs, toolCalls when there are some} once the reply is stored, or `error` {statusCode, code, message, messageId, partial}.
         */
        post: operations["regenerateReplyStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A conversation's share links, newest first (without their tokens)
         * @description Each link's id and dates; a token is shown only once, in the answer that makes the link.
         */
        get: operations["listShares"];
        put?: never;
        /**
         * Share a conversation by link: a read-only snapshot of its active path as it is now
         * @description Copies the main active path (or the branch up to messageId) now: later turns and edits never show through the link. The token is answered only here (only its hash is kept). The link needs no key; expiresAt ends it by itself, DELETE /api/shares/{id} at once. At most 100 shares per conversation (409).
         */
        post: operations["createShare"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The state object itself
         * @description The free-form JSON object (at most 64 KB) the conversation carries for all its threads: its session state (docs/sessions.md).
         */
        get: operations["getState"];
        /**
         * Replace the state with the body
         * @description The whole object is replaced: fields not sent are gone. At most 64 KB.
         */
        put: operations["replaceState"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Apply the body to the state as a JSON merge patch (RFC 7396)
         * @description Fields sent are set, fields sent as null are removed, nested objects merge; the result is answered.
         */
        patch: operations["patchState"];
        trace?: never;
    };
    "/api/conversations/{id}/tree": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every message of every branch with its parent, from the newest backwards (before=seq for older ones)
         * @description For tree views and tools: pages like /messages, but across branches; onPath tells the active path.
         */
        get: operations["listTree"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/active": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The most recently updated conversation of an agent (agentId=none: without an agent; omitted: any)
         * @description The conversation to continue, for clients that keep no id: the newest by last update, with its latest messages (limit). 404 when the caller has none that matches.
         */
        get: operations["getActiveConversation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a conversation from a conversation export (JSON, version 2 or 1)
         * @description The body is a file written by GET /api/conversations/{id}/export. It is validated whole: a foreign or malformed file answers 400 with its first problems and their JSON paths (a version 2 tree with a cycle, a parent not in the file, an id twice or an active leaf of another thread included). Version 2 rebuilds every branch and active path; version 1 the active paths, each earlier answer a sibling. New ids; replies still streaming become failed; the file's agent is not attached (?agentId= binds one of yours). Large files need a larger BODY_LIMIT_BYTES.
         */
        post: operations["importConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a ChatGPT or Open WebUI archive, or a chat-memory account export, as conversation trees
         * @description The body is the file itself (Content-Type: application/json, application/zip or application/octet-stream), read as a stream one conversation at a time, up to IMPORT_BODY_LIMIT_BYTES. A ZIP (told by its first bytes) is decompressed as it is read, its conversations.json (or single archive .json) up to IMPORT_UNZIPPED_LIMIT_BYTES. Every branch is kept and the version last shown is the active path. Each conversation is stored on its own: a damaged one is skipped with its reason, and so is every one past MAX_CONVERSATIONS_PER_ACTOR or over MAX_MESSAGES_PER_CONVERSATION. The agents and memories of an account export are listed in the report and taken only when asked for: ?agents=true creates the agents (one of yours with the same name and settings is reused, a name you use for another agent gets a " (2)" suffix, those past MAX_AGENTS_PER_ACTOR are skipped) and links its conversations to them; ?memories=true takes the memories, unpinned unless ?pinMemories=true. ?dryRun=true answers the same report and stores nothing. A file that is none of the formats is a 400 naming them; one that goes wrong part way answers its error with the conversations stored before that point.
         */
        post: operations["importArchive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Erase everything of yours: conversations, agents, memories, share links, idempotency keys
         * @description Deletes every conversation (its messages, threads, summaries and tags, its share links, which stop working, its AI SDK chat ids and /v1 response records), every agent, every long-term memory and every idempotency key. API keys stay. Cannot be undone. Answers how much was erased. Only your own data: other actors keep theirs.
         */
        delete: operations["eraseAccountData"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download everything of yours: agents and every conversation (in the conversation export format)
         * @description One JSON document, as an attachment, importable whole through POST /api/imports (agents included). Conversations in version 2 (the whole tree) unless ?version=1. Idempotency keys are not exported. Only your own data.
         */
        get: operations["exportAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's long-term memories, most recently updated first
         * @description With q: the memories holding every word, best match first (one page, no cursor). agentId=none: only the global ones.
         */
        get: operations["listMemories"];
        put?: never;
        /**
         * Remember a fact (read by later turns)
         * @description Global, or scoped to one agent (agentId); a pinned memory enters every turn, the others when they match the question. Answers 201 with a Location header.
         */
        post: operations["createMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/memories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One memory
         * @description Another caller's memory answers 404, like a missing one.
         */
        get: operations["getMemory"];
        put?: never;
        post?: never;
        /**
         * Forget a memory (no later turn reads it)
         * @description Deleted for good; turns already answered keep what they said.
         */
        delete: operations["deleteMemory"];
        options?: never;
        head?: never;
        /**
         * Edit, pin or unpin, or rescope a memory
         * @description Only the fields sent change; agentId null makes the memory global.
         */
        patch: operations["updateMemory"];
        trace?: never;
    };
    "/api/memories/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take back the memories of an account export
         * @description Each gets a new id and is global (an agent scope is not carried over); text, pin and dates are kept. All or nothing; at most 1,000 a request.
         */
        post: operations["importMemories"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the models a conversation may choose
         * @description LLM_MODELS when set, else the model server's own list (GET /v1/models, read at most once a minute), else the default model alone.
         */
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's messages best matching a question or some words, across conversations, ranked
         * @description Several hits per conversation, each with its place (conversationId, seq, thread) and a snippet. Archived conversations are included; replies still being generated are not. Page with cursor.
         */
        get: operations["searchMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the API needs a key, and the longest message it takes (no authentication)
         * @description keyRequired tells the same as a 401 from any other route, without trying one: false in single-user mode (no key anywhere, a loopback address).
         */
        get: operations["getSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shared/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a shared conversation (no key needed)
         * @description The title and the messages of the snapshot (role, content, model, createdAt), nothing else. An unknown, malformed, expired or revoked token answers 404, all alike. Limited per client address (SHARED_READS_PER_MINUTE, 429 with Retry-After).
         */
        get: operations["readShared"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shared/{token}/fork": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Continue a shared conversation as your own
         * @description A new conversation of yours holding the snapshot (main thread, titled "<title> (fork)"), to continue from. 404 as for reading.
         */
        post: operations["forkShared"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shares/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a share link: it answers 404 from now on, on every instance
         * @description The link stops working at once; a conversation a reader already continued from it stays theirs.
         */
        delete: operations["revokeShare"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ui/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a message from useChat and stream the reply (AI SDK UI message stream)
         * @description DefaultChatTransport's body `{ id, messages, trigger, messageId }`, or `{ id, message }` with the last message alone. The stored history is the truth: only the last user message is read. `trigger: regenerate-message` answers the chat's last question again; a `messageId` with `submit-message` edits that stored user message (a sibling, answered). Errors before the stream starts (validation, a reply already in progress) are JSON answers; a failure while streaming is an `error` chunk. If the client disconnects, the reply is still generated and stored: resume it with GET /api/ui/chat/{id}/stream.
         */
        post: operations["uiChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ui/chat/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The chat's messages as UIMessage[] (to seed useChat)
         * @description The newest messages of the chat's active path, oldest first, as the AI SDK's UIMessage (id, role, parts, metadata). A reply in progress has the id its resumed stream announces, so resuming replaces it instead of adding a copy. A chat id with no conversation yet answers [].
         */
        get: operations["uiChatMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ui/chat/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop the reply in progress (from any instance)
         * @description Stops the reply being generated in this chat, wherever it runs; its text so far is kept (status cancelled). Wire your stop button to this: useChat's stop() only closes the connection. Streams of the reply end with an abort chunk; afterwards a resume answers 204.
         */
        post: operations["uiChatStop"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ui/chat/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Resume the reply in progress (useChat resume)
         * @description The reply being generated in this chat, from the database (so from any instance): `start` with its id, its text so far, then the rest live, then `finish`. 204 when no reply is being generated.
         */
        get: operations["uiChatResume"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's token usage, in total, per model and per UTC day
         * @description Token counts of the caller's replies between from and to (the last 30 days unless set), optionally for one agent (agentId=none: conversations without an agent).
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness and database check (no authentication)
         * @description 503 only when the database does not answer; a database that answers reads but not writes is reported here and fails `/health/ready`.
         */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the database answers and takes writes (no authentication)
         * @description For a load balancer or orchestrator: 503 while the database is unreachable or refuses writes (full disk); 200 again, without a restart, once a write succeeds.
         */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AccountExportDto: {
            /**
             * @description Whose data this is.
             * @example api:alice
             */
            actor: string;
            agents: components["schemas"]["ExportedAgentDto"][];
            /** @description Each one a conversation export, importable as it is. */
            conversations: components["schemas"]["ConversationExportDto"][];
            /** Format: date-time */
            exportedAt: string;
            /** @enum {string} */
            format: "chat-memory.account";
            /** @description Long-term memories, oldest first (POST /api/memories/import takes them back). */
            memories: components["schemas"]["ExportedMemoryDto"][];
            /** @description Share links of the conversations, oldest first (informative: tokens are not kept, an import does not make links). */
            shares: components["schemas"]["ExportedShareDto"][];
            /**
             * @description The version of every conversation in it.
             * @enum {number}
             */
            version: 1 | 2;
        };
        AgentDeletedDto: {
            /** @description How many conversations were detached or deleted with the agent. */
            conversations: number;
        };
        AgentDto: {
            contextTokenBudget: number | null;
            /** Format: date-time */
            createdAt: string;
            description: string | null;
            emoji: string | null;
            /** Format: uuid */
            id: string;
            maxTokens: number | null;
            /** @description off, read or on; null: MEMORY_MODE as it is. */
            memoryMode: string | null;
            model: string | null;
            name: string;
            systemPrompt: string | null;
            temperature: number | null;
            tools: ("update_state" | "remember" | "forget")[];
            /** Format: date-time */
            updatedAt: string;
        };
        AgentInUseErrorDto: {
            /**
             * @description The stable machine code of the error (docs/api.md, Error codes): act on it, not on `message`.
             * @example conversation_not_found
             */
            code: components["schemas"]["ErrorCode"];
            /** @description How many conversations the agent has. */
            conversations: number;
            /** @example Not Found */
            error: string;
            /** @example Conversation 2f1c… not found */
            message: string;
            /** @example 404 */
            statusCode: number;
        };
        AgentListDto: {
            items: components["schemas"]["AgentDto"][];
            /** @description Pass as cursor for the next page; null on the last. */
            nextCursor: string | null;
        };
        ArchiveErrorDto: {
            /**
             * @description The stable machine code of the error (docs/api.md, Error codes): act on it, not on `message`.
             * @example conversation_not_found
             */
            code: components["schemas"]["ErrorCode"];
            /** @example Not Found */
            error: string;
            /** @description Conversations stored before the file went wrong part way (each was complete). */
            imported?: components["schemas"]["StoredBeforeErrorDto"][];
            /** @example Conversation 2f1c… not found */
            message: string;
            /** @example 404 */
            statusCode: number;
        };
        ArchiveImportReportDto: {
            /** @description The agents of a chat-memory account export, listed whether imported or not; with agents=true imported before its conversations, which are linked to them. */
            agents: components["schemas"]["ImportedAgentDto"][];
            /** @description Agents of a chat-memory account export that were not imported (skipped): their conversations come without an agent. */
            agentsNotImported: number;
            /** @description Totals over the imported conversations of what is not text. */
            dropped: components["schemas"]["DroppedPartsDto"];
            dryRun: boolean;
            /**
             * @description What the file was read as.
             * @enum {string}
             */
            format: "chatgpt" | "open-webui" | "chat-memory" | "empty";
            /** @description The first 10,000 of them (titles and source ids cut to 200 characters). */
            imported: components["schemas"]["ImportedArchiveConversationDto"][];
            /** @description Conversations imported (in a dry run: that would be). */
            importedCount: number;
            /** @description The long-term memories of a chat-memory account export, listed, and with memories=true taken after its conversations (0 for other formats). */
            memories: components["schemas"]["ImportedMemoriesDto"];
            /** @description What the request asked to take besides conversations (all false unless asked for). */
            requested: components["schemas"]["ImportRequestedDto"];
            /** @description The first 100 of them with their reasons (titles and source ids cut to 200 characters, reasons to 1,000). */
            skipped: components["schemas"]["SkippedArchiveConversationDto"][];
            /** @description Conversations skipped. */
            skippedCount: number;
            /** @description The ZIP entry read (e.g. "conversations.json"); null when the upload was JSON. */
            zipEntry: string | null;
        };
        ChatErrorDto: {
            /**
             * @description The stable machine code of the error (docs/api.md, Error codes): act on it, not on `message`.
             * @example conversation_not_found
             */
            code: components["schemas"]["ErrorCode"];
            /**
             * Format: uuid
             * @description The conversation holding the stored user message; retry in it.
             */
            conversationId?: string;
            /** @example Not Found */
            error: string;
            /** @example Conversation 2f1c… not found */
            message: string;
            /**
             * Format: uuid
             * @description The reply (failed) or the reply in progress (409).
             */
            messageId?: string;
            /** @example 404 */
            statusCode: number;
            /** Format: uuid */
            userMessageId?: string;
        };
        ChatRequestDto: {
            /**
             * Format: uuid
             * @description Start the new conversation with this agent. On an existing conversation it must be the conversation's agent.
             */
            agentId?: string;
            /**
             * Format: uuid
             * @description Resume this conversation; omit to start a new one.
             */
            conversationId?: string;
            /**
             * @description The user message (at most MAX_MESSAGE_CHARS characters), not blank.
             * @example Hello!
             */
            message: string;
            /**
             * @description A new conversation's model: one of GET /api/models (400 otherwise), kept for its later turns. On an existing conversation it must be its model.
             * @example gpt-4o-mini
             */
            model?: string;
            options?: components["schemas"]["ModelOptionsDto"];
            /**
             * Format: uuid
             * @description Continue from this message of the conversation instead of its thread's active leaf: a new branch when it is not the leaf, which becomes the active path.
             */
            parentMessageId?: string;
            /** @description Sets the thread's own system prompt, kept for its later turns (not stored as a message). */
            system?: string;
            /** @description The thread to talk in; each has its own history. Default: `main`. */
            thread?: string;
        };
        ChatResponseDto: {
            /**
             * Format: uuid
             * @description The conversation's agent.
             */
            agentId: string | null;
            /** Format: uuid */
            conversationId: string;
            /** @description True when this turn started the conversation. */
            created: boolean;
            /**
             * Format: uuid
             * @description Id of the stored assistant message.
             */
            messageId: string;
            /** @description The model that wrote the reply. */
            model: string | null;
            /** @description Why a truncated reply was cut; null otherwise. */
            reason: components["schemas"]["ReplyCutReasonDto"] | (never | null);
            /** @description The assistant reply, already stored. */
            reply: string;
            /**
             * @description "truncated" when MAX_REPLY_CHARS or LLM_MAX_REPLY_MS cut the reply (reply holds the text up to the cut, see reason); "cancelled" when a stop request ended it early (reply holds the text so far).
             * @enum {string}
             */
            status: "complete" | "truncated" | "cancelled";
            /** @description The thread of this turn. */
            thread: string;
            /** @description Conversation title (its first message, 60 characters). */
            title: string;
            /** @description Token usage reported by the model, if any. */
            usage: components["schemas"]["UsageDto"] | (never | null);
            /** Format: uuid */
            userMessageId: string;
        };
        ClientSettingsDto: {
            /** @description Whether the other routes need an API key (false: single-user mode, every caller is the owner) */
            keyRequired: boolean;
            /** @description The longest message a turn takes, in characters (MAX_MESSAGE_CHARS) */
            maxMessageChars: number;
        };
        ContextPartDto: {
            content: string;
            /**
             * @description memory: the long-term memories sent; recall: excerpts of the actor's earlier conversations matching the message; pinned: a pinned message, sent whatever the window.
             * @enum {string}
             */
            kind: "system" | "memory" | "recall" | "summary" | "pinned" | "history";
            /** @enum {string} */
            role: "system" | "user" | "assistant";
            /** @description The stored message (history), or the last seq the summary covers. */
            seq?: number;
            /** @description Tokens this message costs, chat format included. */
            tokens: number;
        };
        ContextPreviewDto: {
            /** @description Tokens left for the next message. */
            availableForMessage: number;
            budget: number;
            /** @example o200k_base */
            encoding: string;
            /** @description The long-term memories sent (without a message to match, only the pinned ones). */
            memoryIds: string[];
            messages: components["schemas"]["ContextPartDto"][];
            model: string;
            /** @description Window messages left out because they did not fit the budget. */
            omittedForBudget: number;
            /** @description Replayable messages older than what is sent (covered by the summary, or forgotten). */
            outsideWindow: number;
            /** @description The recalled messages sent (none without a message to match). */
            recalledMessageIds: string[];
            /** @description The summary covers the thread up to this seq. */
            summaryCoversSeq: number | null;
            summaryIncluded: boolean;
            /** @description Tokens of everything below, request overhead included. */
            totalTokens: number;
            /** @description HISTORY_WINDOW: at most this many history messages. */
            window: number;
        };
        ConversationDetailDto: {
            /**
             * Format: uuid
             * @description The agent the conversation talks with; null for plain chat.
             */
            agentId: string | null;
            archived: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            id: string;
            /** @description false: a temporary chat (no long-term memory read or written). */
            memory: boolean;
            /**
             * Format: uuid
             * @description Search only: the best-matching message (null: the title matched).
             */
            messageId?: string | null;
            /** @description The newest messages (at most limit), oldest first. */
            messages: components["schemas"]["MessageDto"][];
            /** @description Search only: that message's seq (page to it with GET /api/conversations/{id}/messages?before=seq+1). */
            messageSeq?: number | null;
            /** @description Search only: that message's thread. */
            messageThread?: string | null;
            /** @description The model chosen for the conversation's turns (GET /api/models); null: the agent's or the default. */
            model: string | null;
            /** @description Older messages exist: pass as before to GET /api/conversations/{id}/messages. Null when messages starts at the first one. */
            nextBefore: number | null;
            /** @description Search only: whether that message is on its thread's active path (null: the title matched). When false, the match is on another branch: POST /api/conversations/{id}/messages/{messageId}/select makes it the active path, then it pages as any message does. */
            onPath?: boolean | null;
            pinned: boolean;
            /** @description Search only: the best match, its words in [brackets]. */
            snippet?: string;
            /** @description The session state shared by all threads. */
            state: {
                [key: string]: unknown;
            };
            /** @description The running summary of the thread shown (main unless ?thread=). */
            summary: components["schemas"]["RunningSummaryDto"] | (never | null);
            tags: string[];
            threads: components["schemas"]["ThreadDto"][];
            title: string;
            /**
             * Format: date-time
             * @description Time of the latest message.
             */
            updatedAt: string;
            /** @description Token totals of the conversation's replies. */
            usage: components["schemas"]["TokenTotalsDto"];
        };
        ConversationExportDto: {
            conversation: components["schemas"]["ExportedConversationDto"];
            /** Format: date-time */
            exportedAt?: string;
            /** @enum {string} */
            format: "chat-memory.conversation";
            /**
             * @description 2: every message of the tree with its parent; 1: the active paths only (other answers as `versions`).
             * @enum {number}
             */
            version: 1 | 2;
        };
        ConversationPageDto: {
            items: components["schemas"]["ConversationSummaryDto"][];
            /** @description Pass as cursor for the next page; null on the last. */
            nextCursor: string | null;
        };
        ConversationSummaryDto: {
            /**
             * Format: uuid
             * @description The agent the conversation talks with; null for plain chat.
             */
            agentId: string | null;
            archived: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            id: string;
            /** @description false: a temporary chat (no long-term memory read or written). */
            memory: boolean;
            /**
             * Format: uuid
             * @description Search only: the best-matching message (null: the title matched).
             */
            messageId?: string | null;
            /** @description Search only: that message's seq (page to it with GET /api/conversations/{id}/messages?before=seq+1). */
            messageSeq?: number | null;
            /** @description Search only: that message's thread. */
            messageThread?: string | null;
            /** @description The model chosen for the conversation's turns (GET /api/models); null: the agent's or the default. */
            model: string | null;
            /** @description Search only: whether that message is on its thread's active path (null: the title matched). When false, the match is on another branch: POST /api/conversations/{id}/messages/{messageId}/select makes it the active path, then it pages as any message does. */
            onPath?: boolean | null;
            pinned: boolean;
            /** @description Search only: the best match, its words in [brackets]. */
            snippet?: string;
            tags: string[];
            title: string;
            /**
             * Format: date-time
             * @description Time of the latest message.
             */
            updatedAt: string;
        };
        CreateAgentDto: {
            /** @description Overrides CONTEXT_TOKEN_BUDGET for this agent. */
            contextTokenBudget?: number | null;
            description?: string | null;
            /** @example 🧭 */
            emoji?: string | null;
            maxTokens?: number | null;
            /**
             * @description Narrows MEMORY_MODE for this agent's turns: off (no memory), read (memories read, never written), on (read, and written by the remember and forget tools when enabled). Null: as MEMORY_MODE says.
             * @enum {string|null}
             */
            memoryMode?: "off" | "read" | "on" | null;
            /** @description Overrides LLM_MODEL. */
            model?: string | null;
            /** @example Travel planner */
            name: string;
            /** @description Sent first to the model on every turn. */
            systemPrompt?: string | null;
            temperature?: number | null;
            /** @description Built-in tools the model may call. */
            tools?: ("update_state" | "remember" | "forget")[];
        };
        CreateConversationDto: {
            /**
             * Format: uuid
             * @description Bind the conversation to one of your agents.
             */
            agentId?: string;
            /** @description false: a temporary chat, whose turns neither read nor write long-term memories. Default: `true`. */
            memory?: boolean;
            /**
             * @description The model the conversation's turns call: one of GET /api/models (400 otherwise). Default: the agent's, or the service's default.
             * @example gpt-4o-mini
             */
            model?: string;
            /** @description Initial state: a JSON object of at most 64 KB. */
            state?: {
                [key: string]: unknown;
            };
            /** @description Title (60 characters kept); default "New conversation". */
            title?: string;
        };
        CreatedShareDto: {
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string | null;
            /** Format: uuid */
            id: string;
            /** @description The secret part of the link; answered only now (only its hash is kept). */
            token: string;
            /**
             * @description The link to give out: under PUBLIC_BASE_URL when set, else relative (/s/<token>).
             * @example https://chat.example.com/s/3q2-7wEXAMPLEtokenEXAMPLEtokenEXAMPLEtok
             */
            url: string;
        };
        CreateMemoryDto: {
            /**
             * Format: uuid
             * @description Read only in this agent's conversations (default: in all of them).
             */
            agentId?: string | null;
            /** @description Read on every turn (default false: read when it matches the message). */
            pinned?: boolean;
            /** @example Prefers answers in French. */
            text: string;
        };
        CreateShareDto: {
            /**
             * Format: date-time
             * @description When the link stops working (in the future; default: never, until revoked).
             */
            expiresAt?: string;
            /**
             * Format: uuid
             * @description The last message shared: the branch up to it (default: the whole active path of the main thread).
             */
            messageId?: string;
        };
        DroppedPartsDto: {
            /** @description Attached files, audio without a transcript. */
            files: number;
            /** @description Non-empty hidden system or context messages other than the instructions. */
            hiddenMessages: number;
            /** @description Images and image generations (the files are not in the archive). */
            images: number;
            /** @description Parts of a type the reader does not know. */
            other: number;
            /** @description Reasoning shown apart from a reply (not stored). */
            reasoning: number;
            /** @description Tool traffic with no text kept (browsing, search, tool calls). */
            toolMessages: number;
        };
        EditMessageRequestDto: {
            /**
             * @description The user message (at most MAX_MESSAGE_CHARS characters), not blank.
             * @example Hello!
             */
            message: string;
            options?: components["schemas"]["ModelOptionsDto"];
        };
        ErasedDataDto: {
            agents: number;
            conversations: number;
            idempotencyKeys: number;
            /** @description Long-term memories. */
            memories: number;
            messages: number;
            summaries: number;
            tags: number;
            threads: number;
        };
        /**
         * @description The stable machine code of the error (docs/api.md, Error codes): act on it, not on `message`.
         * @enum {string}
         */
        ErrorCode: "conversation_not_found" | "conversation_busy" | "conversation_state" | "message_not_found" | "invalid_input" | "limit_reached" | "import_rejected" | "archive_format_unknown" | "archive_malformed" | "archive_too_large" | "archive_zip_invalid" | "archive_zip_unsupported" | "archive_zip_without_conversations" | "archive_unzipped_too_large" | "archive_too_many_conversations" | "context_over_budget" | "model_not_offered" | "agent_not_found" | "agent_in_use" | "memory_not_found" | "share_not_found" | "idempotency_key_reused" | "idempotency_key_in_progress" | "too_many_requests" | "chat_turn_failed" | "reply_not_stored" | "model_unavailable" | "model_timeout" | "interrupted" | "reply_too_long" | "reply_timeout" | "storage_full" | "storage_unavailable" | "storage_busy" | "telegram_inbox_full" | "telegram_update_too_large" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "request_timeout" | "conflict" | "payload_too_large" | "unsupported_media_type" | "expectation_failed" | "unprocessable" | "headers_too_large" | "internal" | "bad_gateway" | "unavailable" | "timeout";
        ErrorDto: {
            /**
             * @description The stable machine code of the error (docs/api.md, Error codes): act on it, not on `message`.
             * @example conversation_not_found
             */
            code: components["schemas"]["ErrorCode"];
            /** @example Not Found */
            error: string;
            /** @example Conversation 2f1c… not found */
            message: string;
            /** @example 404 */
            statusCode: number;
        };
        ExportedAgentDto: {
            contextTokenBudget?: number | null;
            /** Format: date-time */
            createdAt?: string;
            description?: string | null;
            /** @description This and the following fields only for your own agents. */
            emoji?: string | null;
            /**
             * Format: uuid
             * @description Informative: an import gives new ids (an account export's import links each conversation to the agent made from the one with this id).
             */
            id: string;
            maxTokens?: number | null;
            model?: string | null;
            name: string;
            systemPrompt?: string | null;
            temperature?: number | null;
            tools?: ("update_state" | "remember" | "forget")[];
            /** Format: date-time */
            updatedAt?: string;
        };
        ExportedConversationDto: {
            /** @description Informative: POST /api/conversations/import binds the agent given as ?agentId=, if any; POST /api/imports of an account export, the agent imported from the file's `agents`. */
            agent?: components["schemas"]["ExportedAgentDto"] | (never | null);
            /** @description Default: `false`. */
            archived?: boolean;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: uuid
             * @description Informative: an import gets a new id.
             */
            id?: string;
            messages: components["schemas"]["ExportedMessageDto"][];
            /** @description Default: `false`. */
            pinned?: boolean;
            /** @description A JSON object of at most 64 KB; default {}. */
            state?: {
                [key: string]: unknown;
            };
            summaries?: components["schemas"]["ExportedSummaryDto"][];
            tags?: string[];
            threads?: components["schemas"]["ExportedThreadDto"][];
            title: string;
            /**
             * Format: date-time
             * @description Informative: an imported conversation is updated at the time of the import.
             */
            updatedAt?: string;
        };
        ExportedMemoryDto: {
            /**
             * Format: uuid
             * @description Informative: an import never scopes it to an agent.
             */
            agentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: uuid
             * @description Informative: an import gives a new id.
             */
            id?: string;
            pinned: boolean;
            text: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ExportedMessageDto: {
            completionTokens: number | null;
            /** @description User messages: not blank, at most MAX_MESSAGE_CHARS characters; replies at most 1000000. */
            content: string;
            /** Format: date-time */
            createdAt: string;
            error: components["schemas"]["MessageErrorDto"] | (never | null);
            /** @description Version 2: the message's key, unique in the document (the stored id on export; any string on import, new ids are given). */
            id?: string;
            model: string | null;
            /** @description Version 2: the `id` of the message this one follows, listed before it in the same thread; null for a first message. */
            parentId?: string | null;
            promptTokens: number | null;
            /** @description A reasoning model's thinking before this reply (never replayed); absent when none. At most 1000000 characters. */
            reasoning?: string | null;
            /** @description How long the model thought, in milliseconds. */
            reasoningMs?: number | null;
            /** @enum {string} */
            role: "user" | "assistant";
            /** @description Order of the messages; strictly increasing in the list. */
            seq: number;
            /**
             * @description User messages are complete; a streaming reply is imported as failed.
             * @enum {string}
             */
            status: "streaming" | "complete" | "truncated" | "failed" | "cancelled";
            /** @example main */
            thread: string;
            toolCalls: components["schemas"]["ToolCallDto"][];
            /** @description Version 1 only: the other answers to the question. Version 2 writes them as sibling messages and does not read this. */
            versions?: components["schemas"]["MessageVersionDto"][];
        };
        ExportedShareDto: {
            /** Format: uuid */
            conversationId: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string | null;
            /** Format: uuid */
            id: string;
            messageCount: number;
            title: string;
            /**
             * Format: uuid
             * @description The last message of the snapshot.
             */
            upToMessageId: string;
        };
        ExportedSummaryDto: {
            /** @description Default: `0`. */
            completionTokens?: number;
            content: string;
            /** @description The summary covers the messages of its thread up to this seq (of this document); in version 2 it stands for the branch holding the message of that seq. */
            coversSeq: number;
            model: string;
            /** @description Default: `0`. */
            promptTokens?: number;
            /** @example main */
            thread: string;
            tokens: number;
            /** Format: date-time */
            updatedAt?: string;
        };
        ExportedThreadDto: {
            /** @description Version 2: the `id` of the last message of the thread's active path (null or absent: its newest leaf). Not read from version 1. */
            activeLeafId?: string | null;
            /** Format: date-time */
            createdAt?: string;
            /** @example main */
            name: string;
            systemPrompt: string | null;
            /** Format: date-time */
            updatedAt?: string;
        };
        ForkRequestDto: {
            /**
             * Format: uuid
             * @description The last message of the fork: messages of every thread up to its seq are copied.
             */
            fromMessageId: string;
        };
        HealthDto: {
            /**
             * @description `not_writable`: it answers reads, but the last write failed (full disk, I/O error) and no write has succeeded since
             * @enum {string}
             */
            database: "ok" | "unreachable" | "not_writable";
            /**
             * @description `degraded`: reads work, writes do not
             * @enum {string}
             */
            status: "ok" | "degraded" | "error";
            /** @description Whether the database takes writes */
            writable: boolean;
        };
        ImportedAgentDto: {
            /**
             * Format: uuid
             * @description Your agent the file's conversations are linked to; null when skipped, or created in a dry run.
             */
            id: string | null;
            /** @description Its name here (the new one when renamed). */
            name: string;
            /**
             * @description reused: you have an agent of that name with the same settings; renamed: you have another agent of that name, this one got a " (2)" suffix; skipped: not a valid agent.
             * @enum {string}
             */
            outcome: "created" | "reused" | "renamed" | "skipped";
            /** @description Why it was skipped (not asked for with agents=true, not valid, MAX_AGENTS_PER_ACTOR reached) or renamed. */
            reason?: string;
            /** @description The agent's id in the file. */
            sourceId: string | null;
            /** @description The start of its system prompt in the file (at most 300 characters). */
            systemPrompt: string | null;
            /** @description The tools the file gives it (update_state, remember, forget). */
            tools: string[];
        };
        ImportedArchiveConversationDto: {
            /**
             * Format: uuid
             * @description Present when the file held new messages of a conversation imported before: they were added to this conversation (and `messages` counts only them).
             */
            appendedTo?: string;
            /** @description Messages with more than one child (where versions diverge). */
            branches: number;
            /**
             * Format: uuid
             * @description The new conversation; null in a dry run.
             */
            id: string | null;
            /** @description Messages stored, every branch included. */
            messages: number;
            /** @description The conversation's id in the archive. */
            sourceId: string;
            title: string;
        };
        ImportedMemoriesDto: {
            /** @description Memories taken (in a dry run: that would be taken). */
            imported: number;
            /** @description The first 100 memories of the file, whether taken or not. */
            items: components["schemas"]["ListedMemoryDto"][];
            /** @description Why they were not taken; null otherwise. */
            reason: string | null;
            /** @description Memories not taken: all of them when not asked for (memories=true) or when one is not valid (the import of memories is all or nothing). */
            skipped: number;
        };
        ImportedMemoryDto: {
            /** @description Ignored: imported memories are global. */
            agentId?: string | null;
            /** Format: date-time */
            createdAt?: string;
            /** @description Ignored (an export writes it): an import is not scoped to an agent. */
            id?: string | null;
            pinned?: boolean;
            text: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        ImportErrorDto: {
            /**
             * @description The stable machine code of the error (docs/api.md, Error codes): act on it, not on `message`.
             * @example conversation_not_found
             */
            code: components["schemas"]["ErrorCode"];
            /** @example Not Found */
            error: string;
            /** @example Conversation 2f1c… not found */
            message: string;
            /** @description For a rejected document: the first 20 problems, with their JSON paths. */
            problems?: components["schemas"]["ImportProblemDto"][];
            /** @example 404 */
            statusCode: number;
        };
        ImportMemoriesDto: {
            /** @description The `memories` of an account export (GET /api/me/export), or any list in that shape. */
            memories: components["schemas"]["ImportedMemoryDto"][];
        };
        ImportProblemDto: {
            /** @example must be one of: user, assistant */
            message: string;
            /** @example $.conversation.messages[3].role */
            path: string;
        };
        ImportRequestedDto: {
            /** @description agents=true: the agents are created. */
            agents: boolean;
            /** @description memories=true: the memories are taken. */
            memories: boolean;
            /** @description pinMemories=true: pins in the file are kept. */
            pinMemories: boolean;
        };
        ListedMemoryDto: {
            /** @description Pinned in the file (kept only with pinMemories=true). */
            pinned: boolean;
            /** @description Its text, cut to 300 characters. */
            text: string;
        };
        MemoriesImportedDto: {
            /** @description How many memories were created. */
            imported: number;
        };
        MemoryDto: {
            /**
             * Format: uuid
             * @description Read only in this agent's conversations; null: in all.
             */
            agentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            id: string;
            pinned: boolean;
            /**
             * Format: uuid
             * @description The conversation it was learned in (it may be deleted since).
             */
            sourceConversationId: string | null;
            /**
             * Format: uuid
             * @description The reply that remembered it.
             */
            sourceMessageId: string | null;
            text: string;
            /** Format: date-time */
            updatedAt: string;
        };
        MemoryListDto: {
            items: components["schemas"]["MemoryDto"][];
            /** @description Pass as cursor for the next page; null on the last (and with q). */
            nextCursor: string | null;
        };
        MessageDto: {
            completionTokens: number | null;
            content: string;
            /** Format: date-time */
            createdAt: string;
            /** @description Why a failed reply failed. */
            error: components["schemas"]["MessageErrorDto"] | (never | null);
            /** Format: uuid */
            id: string;
            /** @description A reply: the long-term memories its turn was given (ids; a memory may be deleted since). */
            memoryIds: string[];
            model: string | null;
            /** @description On its thread's active path: the branch turns continue and the model is sent. */
            onPath: boolean;
            /**
             * Format: uuid
             * @description The message this one follows; null for the first of its thread (or an edit of it).
             */
            parentId: string | null;
            /** @description Pinned: always sent to the model while on the active path (PATCH .../messages/{messageId}). */
            pinned: boolean;
            promptTokens: number | null;
            /** @description A reply of a reasoning model: what it thought before answering (at most MAX_REPLY_CHARS; never replayed); null: none. */
            reasoning: string | null;
            /** @description How long the model thought, in milliseconds (streamed replies; null otherwise). */
            reasoningMs: number | null;
            /** @description A reply: the messages of the actor's past that recall gave its turn, best match first (ids; a message may be deleted since). */
            recalledMessageIds: string[];
            /** @enum {string} */
            role: "user" | "assistant" | "system" | "tool";
            /** @description The order messages were stored in, 1-based and unique in the conversation; along any branch it only grows (the active path may skip numbers that belong to other branches). */
            seq: number;
            /** @description How many siblings it has, itself included (1: no other version). */
            siblingCount: number;
            /** @description Its siblings, itself included, oldest first: select one to switch branches. */
            siblingIds: string[];
            /** @description Its position among its siblings (the versions of this point of the dialogue), 0-based, oldest first. */
            siblingIndex: number;
            /**
             * @description "streaming": being generated (content grows); "complete"; "failed": the model broke off (partial text kept, see error); "cancelled": stopped on request (partial text kept). Only complete messages are replayed to the model.
             * @enum {string}
             */
            status: "streaming" | "complete" | "truncated" | "failed" | "cancelled";
            /** @example main */
            thread: string;
            /** @description Tools the model called while writing this reply (never replayed). */
            toolCalls: components["schemas"]["ToolCallDto"][];
            /** @description A reply: the other answers to its question (its sibling replies), oldest first; never replayed. Kept for clients written before branches: siblingIds is the tree. */
            versions: components["schemas"]["MessageVersionDto"][];
        };
        MessageErrorDto: {
            message: string;
            /**
             * @description The HTTP status the failure maps to (502 model error, 504 timeout).
             * @example 502
             */
            statusCode: number;
        };
        MessageHitDto: {
            /** Format: uuid */
            conversationId: string;
            conversationTitle: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            messageId: string;
            /** @description Whether the message is on its thread's active path (false: on a branch left aside; select it to continue from there). */
            onPath: boolean;
            /** @enum {string} */
            role: "user" | "assistant" | "system" | "tool";
            /** @description How well the message matches (higher is better); comparable within one search only. */
            score: number;
            /** @description The message's place in its conversation (GET /api/conversations/{id}/messages?before=seq+1 reads up to it). */
            seq: number;
            /** @description A piece of the message around the matched words, each in [brackets]. */
            snippet: string;
            /** @description The thread the message belongs to. */
            thread: string;
        };
        MessageSearchPageDto: {
            /** @description Best first. */
            items: components["schemas"]["MessageHitDto"][];
            /** @description Pass as cursor, with the same query, for the next page; null: no more. */
            nextCursor: string | null;
        };
        MessagesPageDto: {
            /** @description Oldest first within the page. */
            items: components["schemas"]["MessageDto"][];
            /** @description Pass as before for the page of older messages; null on the first message. */
            nextBefore: number | null;
        };
        MessageVersionDto: {
            completionTokens: number | null;
            content: string;
            /** Format: date-time */
            createdAt: string;
            error?: components["schemas"]["MessageErrorDto"] | (never | null);
            model: string | null;
            promptTokens: number | null;
            /** @enum {string} */
            status: "streaming" | "complete" | "truncated" | "failed" | "cancelled";
        };
        ModelDto: {
            /** @example gpt-4o-mini */
            id: string;
        };
        ModelListDto: {
            /** @description The model turns call when neither the conversation nor its agent chooses one. */
            defaultModel: string;
            /** @description The models a conversation may choose, the default first. */
            items: components["schemas"]["ModelDto"][];
        };
        ModelOptionsDto: {
            maxTokens?: number;
            temperature?: number;
        };
        PinMessageDto: {
            /** @description true: always sent to the model while on the active path; false: as any other message. */
            pinned: boolean;
        };
        RegenerateRequestDto: {
            options?: components["schemas"]["ModelOptionsDto"];
            /** @description The thread to talk in; each has its own history. Default: `main`. */
            thread?: string;
        };
        ReplyCutReasonDto: {
            /**
             * @description reply_too_long: MAX_REPLY_CHARS; reply_timeout: LLM_MAX_REPLY_MS.
             * @enum {string}
             */
            code: "reply_too_long" | "reply_timeout";
            message: string;
        };
        RunningSummaryDto: {
            /** @description Completion tokens of those folds. */
            completionTokens: number;
            /** @description What fell out of the window, folded by the model. */
            content: string;
            /** @description The summary covers every message of the thread up to this seq. */
            coversSeq: number;
            model: string;
            /** @description Prompt tokens of all the folds that made this summary. */
            promptTokens: number;
            tokens: number;
            /** Format: date-time */
            updatedAt: string;
        };
        SharedConversationDto: {
            /** @description The snapshot, oldest first: what the conversation held when shared. */
            messages: components["schemas"]["SharedMessageDto"][];
            title: string;
        };
        SharedMessageDto: {
            content: string;
            /** Format: date-time */
            createdAt: string;
            /** @description The model that wrote a reply. */
            model: string | null;
            /** @enum {string} */
            role: "user" | "assistant" | "system" | "tool";
        };
        ShareDto: {
            /** Format: uuid */
            conversationId: string;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description Past it the link answers 404 (the share stays listed until revoked).
             */
            expiresAt: string | null;
            /** Format: uuid */
            id: string;
            messageCount: number;
            /** @description The title when shared. */
            title: string;
            /**
             * Format: uuid
             * @description The last message of the snapshot.
             */
            upToMessageId: string;
        };
        ShareListDto: {
            /** @description Newest first. */
            items: components["schemas"]["ShareDto"][];
        };
        SkippedArchiveConversationDto: {
            /**
             * @description Present when the account holds this conversation already: imported before from the same file (or a newer export of the same tool), or, for our own format, the conversation itself.
             * @enum {string}
             */
            code?: "already_imported";
            /** @description Position in the file, from 0. */
            index: number;
            /** @example a node whose parent is not in the conversation */
            reason: string;
            sourceId: string | null;
            title: string | null;
        };
        StoredBeforeErrorDto: {
            /** Format: uuid */
            id: string;
            sourceId: string;
            title: string;
        };
        StreamConversationData: {
            /** Format: uuid */
            agentId?: string | null;
            /** Format: uuid */
            conversationId: string;
            /** @description True when this turn started the conversation. */
            created?: boolean;
            /**
             * Format: uuid
             * @description The reply being generated: follow or cancel it with this id.
             */
            messageId: string;
            /** @description True when a retry with the same Idempotency-Key replays or follows the first request. */
            replayed?: boolean;
            thread?: string;
            title?: string;
            /**
             * Format: uuid
             * @description The stored question (absent when a retry follows a running turn).
             */
            userMessageId?: string;
        };
        StreamConversationEvent: {
            data: components["schemas"]["StreamConversationData"];
            /** @enum {string} */
            event: "conversation";
        };
        StreamDeltaData: {
            /** @description Text to append to the reply. */
            text: string;
        };
        StreamDeltaEvent: {
            data: components["schemas"]["StreamDeltaData"];
            /** @enum {string} */
            event: "delta";
        };
        StreamDoneData: {
            /** Format: uuid */
            messageId: string;
            model: string | null;
            /** @description Why a truncated reply was cut; null otherwise. */
            reason: components["schemas"]["ReplyCutReasonDto"] | (never | null);
            /** @description What a reasoning model thought before answering, whole (absent when it did not). */
            reasoning?: string;
            /** @description How long it thought, in milliseconds (with `reasoning`; null for a reply that was not streamed). */
            reasoningMs?: number | null;
            /** @description The whole stored reply. */
            reply: string;
            /** @enum {string} */
            status: "complete" | "truncated" | "cancelled";
            /** @description Tools the model called on the way to this reply, with their results (absent when none). */
            toolCalls?: components["schemas"]["ToolCallDto"][];
            usage: components["schemas"]["UsageDto"] | (never | null);
        };
        StreamDoneEvent: {
            data: components["schemas"]["StreamDoneData"];
            /** @enum {string} */
            event: "done";
        };
        StreamErrorData: {
            /** @description The stable code of the failure, as in an error body. */
            code: components["schemas"]["ErrorCode"];
            message: string;
            /** Format: uuid */
            messageId: string;
            /** @description The text generated before the failure (stored with the failed reply). */
            partial: string;
            /**
             * @description 502 model error, 504 timeout, 500 unexpected server error.
             * @example 502
             */
            statusCode: number;
        };
        StreamErrorEvent: {
            data: components["schemas"]["StreamErrorData"];
            /** @enum {string} */
            event: "error";
        };
        StreamReasoningData: {
            /** @description A piece of a reasoning model's thinking, to append to it (never part of the reply). */
            text: string;
        };
        StreamReasoningEvent: {
            data: components["schemas"]["StreamReasoningData"];
            /** @enum {string} */
            event: "reasoning";
        };
        ThreadDto: {
            /** Format: date-time */
            createdAt: string;
            /** @example main */
            name: string;
            /** @description The thread's own system prompt. */
            systemPrompt: string | null;
            /** Format: date-time */
            updatedAt: string;
        };
        TokenTotalsDto: {
            completionTokens: number;
            promptTokens: number;
        };
        ToolCallDto: {
            /** @description The arguments as the model wrote them (JSON text). */
            arguments: string;
            /** @example update_state */
            name: string;
            /** @description What the tool answered (JSON text). */
            result: string;
        };
        UiChatRequestDto: {
            /**
             * Format: uuid
             * @description A new chat starts with this agent; on an existing one it must be its agent.
             */
            agentId?: string;
            /**
             * @description The client's chat id (`useChat`'s `id`): 1-128 of A-Z, a-z, 0-9, `_` and `-`, or one of your conversation ids. The first message under a new id starts a conversation of the caller's; another API key's same id is another conversation.
             * @example c7XyQw2aB9
             */
            id: string;
            /** @description The last message alone, instead of `messages` (a UIMessage with role user). */
            message?: {
                [key: string]: unknown;
            };
            /** @description With submit-message: the user message this one edits (the new question is its sibling, answered, on a branch that becomes active). With regenerate-message: the message answered again (a question, or an answer to one), on the active path; without it, the last question. By the stored id or by the client's own id of a message it sent. */
            messageId?: string;
            /** @description The chat's messages as the client holds them (UIMessage: id, role, parts). Only the last one is read: a user message with text parts. */
            messages?: {
                [key: string]: unknown;
            }[];
            options?: components["schemas"]["ModelOptionsDto"];
            /** @description The thread of the conversation to talk in. Default: `main`. */
            thread?: string;
            /** @description Tools the client runs itself (no `execute` on the server: useChat `onToolCall` + `addToolOutput`), by name: `{ [name]: { description?, inputSchema } }`, the input as a JSON Schema object. They are offered to the model beside the agent's tools; a call of one ends the reply with the call as a tool part (`input-available`), and the next request, carrying the assistant message with the tool output (`output-available` or `output-error`), continues that reply. Names: 1-64 of A-Z, a-z, 0-9, `_` and `-`; at most 32 tools. An entry named after one of the agent's tools (`update_state`, `remember`, `forget`) takes only `{ needsApproval: boolean }`: with true, a call of it ends the reply with a `tool-approval-request`, and runs once the next request approves it (`approval-responded`). */
            tools?: {
                [key: string]: {
                    description?: string;
                    inputSchema?: {
                        [key: string]: unknown;
                    };
                    needsApproval?: boolean;
                };
            };
            /**
             * @description `submit-message` answers the new user message; `regenerate-message` answers the last question again (a sibling answer). Default: `submit-message`.
             * @enum {string}
             */
            trigger?: "submit-message" | "regenerate-message";
        };
        UiMessageDto: {
            /** @description The client's own id for a message it sent (useChat's), else the stored message's id (a uuid). */
            id: string;
            metadata: components["schemas"]["UiMetadataDto"];
            parts: components["schemas"]["UiPartDto"][];
            /** @enum {string} */
            role: "system" | "user" | "assistant";
        };
        UiMetadataDto: {
            /** Format: uuid */
            conversationId: string;
            /** Format: date-time */
            createdAt: string;
            /** @description Why a reply failed or was cut. */
            error?: {
                code?: string;
                message?: string;
            } | null;
            model?: string | null;
            /** @enum {string} */
            status: "streaming" | "complete" | "truncated" | "failed" | "cancelled";
            usage?: {
                completionTokens?: number;
                promptTokens?: number;
            } | null;
        };
        UiPartDto: {
            /** @description On a call of the agent's tool that needs the client's approval: the approval asked for, and the answer once given. */
            approval?: {
                approved?: boolean;
                id?: string;
                reason?: string;
            };
            data?: {
                [key: string]: unknown;
            };
            /** @description The tool call's input (its JSON arguments, parsed). */
            input?: Record<string, never>;
            /** @description What the tool returned (JSON, parsed when it is). */
            output?: Record<string, never>;
            /** @enum {string} */
            state?: "streaming" | "done" | "input-available" | "approval-requested" | "output-available" | "output-denied";
            text?: string;
            toolCallId?: string;
            /**
             * @description `text` (with `text`), `data-state` (with `data`: the session state after update_state), `step-start`, or `tool-<name>` (a tool call: `toolCallId`, `state`, `input`, `output`).
             * @example text
             */
            type: string;
        };
        UiStopResponseDto: {
            /** @description The reply stopped (the id its stream announced in `start`), or null. */
            messageId: string | null;
            /** @description The status of that reply now: `cancelled` once stopped (`complete`, `truncated` or `failed` if it ended first). */
            status: string | null;
            /** @description True when a reply in progress was stopped (its text so far kept, status cancelled). */
            stopped: boolean;
        };
        UpdateAgentDto: {
            /** @description Overrides CONTEXT_TOKEN_BUDGET for this agent. */
            contextTokenBudget?: number | null;
            description?: string | null;
            /** @example 🧭 */
            emoji?: string | null;
            maxTokens?: number | null;
            /**
             * @description Narrows MEMORY_MODE for this agent's turns: off (no memory), read (memories read, never written), on (read, and written by the remember and forget tools when enabled). Null: as MEMORY_MODE says.
             * @enum {string|null}
             */
            memoryMode?: "off" | "read" | "on" | null;
            /** @description Overrides LLM_MODEL. */
            model?: string | null;
            /** @example Travel planner */
            name?: string;
            /** @description Sent first to the model on every turn. */
            systemPrompt?: string | null;
            temperature?: number | null;
            /** @description Built-in tools the model may call. */
            tools?: ("update_state" | "remember" | "forget")[];
        };
        UpdateConversationDto: {
            archived?: boolean;
            /**
             * @description The model the conversation's turns call: one of GET /api/models (400 otherwise); null: back to the agent's or the default.
             * @example gpt-4o-mini
             */
            model?: string | null;
            pinned?: boolean;
            /** @description Replaces the tags (each 1-50 characters; stored lower-case). */
            tags?: string[];
            /** @description New title (60 characters kept). */
            title?: string;
        };
        UpdateMemoryDto: {
            /**
             * Format: uuid
             * @description Read only in this agent's conversations (default: in all of them).
             */
            agentId?: string | null;
            /** @description Read on every turn (default false: read when it matches the message). */
            pinned?: boolean;
            /** @example Prefers answers in French. */
            text?: string;
        };
        UsageByDayDto: {
            completionTokens: number;
            /**
             * @description UTC day.
             * @example 2026-11-30
             */
            day: string;
            promptTokens: number;
            /** @description Replies counted. */
            replies: number;
        };
        UsageByModelDto: {
            completionTokens: number;
            model: string;
            promptTokens: number;
            /** @description Replies counted. */
            replies: number;
        };
        UsageDto: {
            completionTokens: number;
            promptTokens: number;
        };
        UsageReportDto: {
            byDay: components["schemas"]["UsageByDayDto"][];
            byModel: components["schemas"]["UsageByModelDto"][];
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            totals: components["schemas"]["UsageRowDto"];
        };
        UsageRowDto: {
            completionTokens: number;
            promptTokens: number;
            /** @description Replies counted. */
            replies: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAgents: {
        parameters: {
            query?: {
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentListDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAgentDto"];
            };
        };
        responses: {
            /** @description The created resource */
            201: {
                headers: {
                    /** @description The path of the created resource */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The caller has as many agents as MAX_AGENTS_PER_ACTOR allows (code `limit_reached`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    deleteAgent: {
        parameters: {
            query?: {
                /** @description Required when the agent has conversations: keep them without an agent (detach), or delete them too. */
                conversations?: "detach" | "delete";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDeletedDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentInUseErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    updateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAgentDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    chat: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries safe: a retry with the same key and body within 24 hours gets the stored result without calling the model again; the same key with a different body gets 422; a retry while the first is still running waits for it (a stream follows it). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatResponseDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description Request body larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The Idempotency-Key was already used with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The model failed; the user message is stored */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The model did not answer in time; the user message is stored */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    chatStream: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries safe: a retry with the same key and body within 24 hours gets the stored result without calling the model again; the same key with a different body gets 422; a retry while the first is still running waits for it (a stream follows it). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatRequestDto"];
            };
        };
        responses: {
            /** @description Server-sent events: `conversation` {conversationId, userMessageId, messageId, title, created, agentId, thread} once the question is stored; `reasoning` {text} for each piece of a reasoning model's thinking; `delta` {text} for each piece of the reply; then `done` {messageId, reply, status, reason, model, usage, and reasoning, reasoningMs, toolCalls when there are some} once the reply is stored, or `error` {statusCode, code, message, messageId, partial}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description Request body larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The Idempotency-Key was already used with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE), or too many open streams (MAX_STREAMS_PER_ACTOR); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listConversations: {
        parameters: {
            query?: {
                /** @description An agent id, or "none" for conversations without an agent. */
                agentId?: string;
                /** @description true: only archived conversations (hidden by default). */
                archived?: boolean;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                limit?: number;
                pinned?: boolean;
                /** @description true: pinned conversations first, then the others, each most recently updated first. Its cursors page in this order only. */
                pinnedFirst?: boolean;
                /** @description Full-text search over titles and messages (archived included); ranked, one hit per conversation. */
                q?: string;
                /** @description Only conversations with this tag. */
                tag?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationPageDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    createConversation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateConversationDto"];
            };
        };
        responses: {
            /** @description The created resource */
            201: {
                headers: {
                    /** @description The path of the created resource */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationDetailDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The caller has as many conversations as allowed (code `limit_reached`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    getConversation: {
        parameters: {
            query?: {
                /** @description How many of the newest messages to include; older ones: GET /api/conversations/{id}/messages?before=nextBefore. */
                limit?: number;
                /** @description Only this thread's messages. */
                thread?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationDetailDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    deleteConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    updateConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateConversationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationSummaryDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    previewContext: {
        parameters: {
            query?: {
                thread?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextPreviewDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    exportConversation: {
        parameters: {
            query?: {
                /** @description json: the versioned export (importable); markdown: a readable transcript of the active paths. */
                format?: "json" | "markdown";
                /** @description The JSON version: 2, the whole tree (every branch, each thread's active leaf); 1, the active paths only, for readers written before the tree. */
                version?: 1 | 2;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, as an attachment. */
            200: {
                headers: {
                    /** @description attachment; filename="<title>-<date>.json" (or .md) */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationExportDto"];
                    "text/markdown": string;
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    forkConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ForkRequestDto"];
            };
        };
        responses: {
            /** @description The created resource */
            201: {
                headers: {
                    /** @description The path of the created resource */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationDetailDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description Request body larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query?: {
                /** @description Only messages with a smaller seq (the nextBefore of the previous page); omit for the newest. */
                before?: number;
                limit?: number;
                /** @description Only this thread's messages. */
                thread?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagesPageDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    pinMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PinMessageDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    cancelMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    editMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EditMessageRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatResponseDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description Request body larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The Idempotency-Key was already used with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The model failed; the user message is stored */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The model did not answer in time; the user message is stored */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    editMessageStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EditMessageRequestDto"];
            };
        };
        responses: {
            /** @description Server-sent events: `conversation` {conversationId, userMessageId, messageId, title, created, agentId, thread} once the question is stored; `reasoning` {text} for each piece of a reasoning model's thinking; `delta` {text} for each piece of the reply; then `done` {messageId, reply, status, reason, model, usage, and reasoning, reasoningMs, toolCalls when there are some} once the reply is stored, or `error` {statusCode, code, message, messageId, partial}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description Request body larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The Idempotency-Key was already used with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE), or too many open streams (MAX_STREAMS_PER_ACTOR); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    selectBranch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    followMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-sent events: `delta` {text}…, then `done` or `error`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE), or too many open streams (MAX_STREAMS_PER_ACTOR); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    regenerateReply: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RegenerateRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatResponseDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The model failed; the user message is stored */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The model did not answer in time; the user message is stored */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    regenerateReplyStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RegenerateRequestDto"];
            };
        };
        responses: {
            /** @description Server-sent events: `conversation` {conversationId, userMessageId, messageId, title, created, agentId, thread} once the question is stored; `reasoning` {text} for each piece of a reasoning model's thinking; `delta` {text} for each piece of the reply; then `done` {messageId, reply, status, reason, model, usage, and reasoning, reasoningMs, toolCalls when there are some} once the reply is stored, or `error` {statusCode, code, message, messageId, partial}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE), or too many open streams (MAX_STREAMS_PER_ACTOR); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listShares: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareListDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    createShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateShareDto"];
            };
        };
        responses: {
            /** @description The created resource */
            201: {
                headers: {
                    /** @description The path of the created resource */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedShareDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    getState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    replaceState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Request body larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    patchState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
                "application/merge-patch+json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Request body larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listTree: {
        parameters: {
            query?: {
                /** @description Only messages with a smaller seq (the nextBefore of the previous page); omit for the newest. */
                before?: number;
                limit?: number;
                /** @description Only this thread's messages. */
                thread?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagesPageDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    getActiveConversation: {
        parameters: {
            query?: {
                /** @description An agent id, or "none" for conversations without an agent. */
                agentId?: string;
                /** @description How many of the newest messages to include; older ones: GET /api/conversations/{id}/messages?before=nextBefore. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationDetailDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    importConversation: {
        parameters: {
            query?: {
                /** @description One of your agents, to bind the imported conversation to (the file's agent is never attached). */
                agentId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConversationExportDto"];
            };
        };
        responses: {
            /** @description The created resource */
            201: {
                headers: {
                    /** @description The path of the created resource */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationSummaryDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Request body larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    importArchive: {
        parameters: {
            query?: {
                /** @description true: also create the agents of a chat-memory account export (their system prompts and tools) and link the file's conversations to them. Without it they are only listed. */
                agents?: boolean;
                /** @description true: read and check the whole file and answer the same report, storing nothing (ids are null). */
                dryRun?: boolean;
                /** @description true: also take the long-term memories of a chat-memory account export (global memories, read into every later turn). Without it they are only listed in the report. */
                memories?: boolean;
                /** @description true (with memories=true): a memory pinned in the file stays pinned. Without it every memory taken is unpinned. */
                pinMemories?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>[] | Record<string, never> | string;
                "application/octet-stream": Record<string, never>[] | Record<string, never> | string;
                "application/zip": Record<string, never>[] | Record<string, never> | string;
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArchiveImportReportDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArchiveErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The file's agents would take the caller past MAX_AGENTS_PER_ACTOR (code `limit_reached`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Request body larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArchiveErrorDto"];
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    eraseAccountData: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErasedDataDto"];
                };
            };
            /** @description A malformed JSON body (code `invalid_input`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    exportAccount: {
        parameters: {
            query?: {
                /** @description The JSON version: 2, the whole tree (every branch, each thread's active leaf); 1, the active paths only, for readers written before the tree. */
                version?: 1 | 2;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, as an attachment. */
            200: {
                headers: {
                    /** @description attachment; filename="chat-memory-<name>-<date>.json" */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountExportDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listMemories: {
        parameters: {
            query?: {
                /** @description An agent id, or "none" for conversations without an agent. */
                agentId?: string;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                limit?: number;
                /** @description Full-text search: memories holding every word, best first (one page). */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryListDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    createMemory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMemoryDto"];
            };
        };
        responses: {
            /** @description The created resource */
            201: {
                headers: {
                    /** @description The path of the created resource */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The caller keeps as many memories as MAX_MEMORIES_PER_ACTOR allows (code `limit_reached`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    getMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    deleteMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    updateMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMemoryDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    importMemories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImportMemoriesDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoriesImportedDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The caller keeps as many memories as MAX_MEMORIES_PER_ACTOR allows (code `limit_reached`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    listModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelListDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A malformed JSON body (code `invalid_input`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    searchMessages: {
        parameters: {
            query: {
                /** @description Only messages created after this instant (ISO 8601). */
                after?: string;
                /** @description An agent id, or "none" for conversations without an agent. */
                agentId?: string;
                /** @description Only messages created before this instant (ISO 8601). */
                before?: string;
                /** @description Only messages of this conversation. */
                conversationId?: string;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
                limit?: number;
                /** @description Words to look for, as one would ask (any word matches; messages holding more of them, and rarer ones, rank first; stemmed; stop words ignored). "a phrase" in double quotes, -word to exclude, word* for a prefix. */
                q: string;
                /** @description Only messages of this role. */
                role?: "user" | "assistant" | "system" | "tool";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageSearchPageDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    getSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientSettingsDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A malformed JSON body (code `invalid_input`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    readShared: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token of the link (/s/<token>): 43 characters of A-Z, a-z, 0-9, "_" and "-". Any other text answers 404, like an unknown token. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedConversationDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many reads from this address (SHARED_READS_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    forkShared: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token of the link (/s/<token>): 43 characters of A-Z, a-z, 0-9, "_" and "-". Any other text answers 404, like an unknown token. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The created resource */
            201: {
                headers: {
                    /** @description The path of the created resource */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationDetailDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    revokeShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    uiChat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UiChatRequestDto"];
            };
        };
        responses: {
            /** @description The AI SDK UI message stream (protocol v1, header `x-vercel-ai-ui-message-stream: v1`): `data: <chunk JSON>` events `start` {messageId, messageMetadata}, `start-step`, `text-start`, `text-delta`…, `text-end`, then `finish-step` and `finish` (or `abort` for a stopped reply, `error` {errorText} for a failed one), then `data: [DONE]`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A reply is still being generated in this conversation, or there is nothing to regenerate */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatErrorDto"];
                };
            };
            /** @description Request body larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE), or too many open streams (MAX_STREAMS_PER_ACTOR); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    uiChatMessages: {
        parameters: {
            query?: {
                /** @description The newest messages of the active path, at most this many. */
                limit?: number;
                /** @description The thread (main by default). */
                thread?: string;
            };
            header?: never;
            path: {
                /** @description The client's chat id (useChat's id) or one of your conversation ids. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UiMessageDto"][];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    uiChatStop: {
        parameters: {
            query?: {
                /** @description The thread (main by default). */
                thread?: string;
            };
            header?: never;
            path: {
                /** @description The client's chat id (useChat's id) or one of your conversation ids. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UiStopResponseDto"];
                };
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    uiChatResume: {
        parameters: {
            query?: {
                /** @description The thread (main by default). */
                thread?: string;
            };
            header?: never;
            path: {
                /** @description The client's chat id (useChat's id) or one of your conversation ids. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The AI SDK UI message stream (protocol v1, header `x-vercel-ai-ui-message-stream: v1`): `data: <chunk JSON>` events `start` {messageId, messageMetadata}, `start-step`, `text-start`, `text-delta`…, `text-end`, then `finish-step` and `finish` (or `abort` for a stopped reply, `error` {errorText} for a failed one), then `data: [DONE]`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description No reply is being generated in this chat. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE), or too many open streams (MAX_STREAMS_PER_ACTOR); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description An agent id, or "none" for conversations without an agent. */
                agentId?: string;
                /** @description Start (inclusive), ISO 8601 date or date-time; default 30 days before `to`. */
                from?: string;
                /** @description End (exclusive), ISO 8601; default now. A bare date means the start of that day (UTC). */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageReportDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (validation, malformed JSON, message too long) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Missing or invalid API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description No such conversation (or it belongs to another actor) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After */
            429: {
                headers: {
                    /** @description On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`. */
                    RateLimit?: string;
                    /** @description On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description Seconds until the same request may succeed. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A malformed JSON body (code `invalid_input`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database does not answer */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthDto"];
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthDto"];
                };
            };
            /** @description Not modified: If-None-Match names the ETag of the current answer (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A malformed JSON body (code `invalid_input`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description In single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body larger than BODY_LIMIT_BYTES (code `payload_too_large`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description A body sent with a content type other than JSON (code `unsupported_media_type`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDto"];
                };
            };
            /** @description The database does not answer or does not take writes */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthDto"];
                };
            };
        };
    };
}
