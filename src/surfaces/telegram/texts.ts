/**
 * The bot's commands: one list feeds both the command menu (setMyCommands) and /help, so the
 * two cannot disagree. A new command is added here and handled in TelegramCommands.
 */
export const BOT_COMMANDS: ReadonlyArray<{
  readonly command: string;
  readonly usage: string;
  readonly description: string;
}> = [
  { command: 'new', usage: '/new', description: 'start a new conversation' },
  { command: 'list', usage: '/list', description: 'your recent conversations' },
  { command: 'use', usage: '/use N', description: 'continue conversation N of /list' },
  { command: 'history', usage: '/history', description: 'the last messages of this conversation' },
  { command: 'share', usage: '/share', description: 'a read-only link to this conversation as it is now' },
  { command: 'unshare', usage: '/unshare', description: 'revoke the links of this conversation' },
  { command: 'delete', usage: '/delete', description: 'delete this conversation' },
  { command: 'agent', usage: '/agent [N|none]', description: 'list the agents, or talk with one' },
  { command: 'memory', usage: '/memory', description: 'what I remember about you' },
  { command: 'forget', usage: '/forget N', description: 'forget memory N of /memory' },
  { command: 'help', usage: '/help', description: 'what I can do' },
];

export function helpText(inGroup: boolean): string {
  const intro = inGroup
    ? 'I am a chat assistant with a memory. In this group I answer when I am mentioned or replied to; ' +
      'the group shares one conversation, and its messages continue it.'
    : 'I am a chat assistant with a memory: every message you send continues the current conversation, ' +
      'even after a long break.';
  const commands = BOT_COMMANDS.map((c) => `${c.usage} – ${c.description}`).join('\n');
  return `${intro}\n\n${commands}`;
}

/** The refusal for a user outside TELEGRAM_ALLOWED_USERS: their id is what the operator would add. */
export function refusalText(userId: number): string {
  return `${TEXTS.refusal} Your Telegram user id is ${userId}, should its operator want to let you in.`;
}

export const TEXTS = {
  welcome: 'Hello! Just write to me.',
  refusal: 'Sorry, this bot is private.',
  apology: 'Sorry, the model could not answer just now. Your message is saved: send another message to try again.',
  busy: 'I am still answering your previous message in this conversation. Send this one again once that answer arrives.',
  failure: 'Sorry, something went wrong on my side. Please try again.',
  storage: 'Sorry, I cannot save anything right now (my storage is full or unavailable). Please try again in a minute.',
  cutTooLong: '(The answer was cut here: it reached the length limit for one reply.)',
  cutTimeout: '(The answer was cut here: it took longer than one reply may take.)',
  textOnly: 'I can only read text messages.',
  emptyMention: 'Yes? Write your question after mentioning me, or reply to one of my messages.',
  unknownCommand: 'I do not know that command. /help lists what I can do.',
  newConversation: 'Started a new conversation. Your next message is its first.',
  noConversations: 'You have no conversations yet. Just send a message to start one.',
  noMemories: 'I remember nothing about you yet.',
  useUsage: 'Send /use N with a number from /list, for example /use 2.',
  noCurrent: 'There is no current conversation yet. Just send a message to start one.',
  emptyHistory: 'This conversation has no messages yet.',
  kept: 'Kept. Nothing was deleted.',
  alreadyGone: 'That conversation no longer exists.',
  notYourButton: 'Only the person who asked can answer this.',
  noAgents: 'This bot offers no agents: you are talking with the assistant itself.',
} as const;
