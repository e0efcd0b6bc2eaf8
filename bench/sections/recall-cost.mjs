// `--only=recall-cost`: what recall adds to a turn when every one of the actor's 100,000 stored
// messages matches the new message's words (the worst case: each word's candidates are capped,
// none is rare), next to 99,900 messages of another actor. The same database is opened with
// RECALL_MODE on and off in alternating slices; each slice sends turns through the compiled
// ChatService (echo model) into the actor's 100,000-message conversation, and times
// TurnRecall.forMessage alone. SQLite, in-process, 127.0.0.1 only.
import 'reflect-metadata';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { ROOT, round, spread, summarize, tempDir } from '../lib/common.mjs';
import { SEED_USER, templateSeeder } from '../lib/seed.mjs';

const dist = (p) => import(pathToFileURL(join(ROOT, 'dist', 'src', p)).href);

export async function recallCost({ quick }, log) {
  const { NestFactory } = await import('@nestjs/core');
  const { loadConfig } = await dist('config/app-config.js');
  const { ConfigModule } = await dist('config/config.module.js');
  const { DatabaseModule } = await dist('database/database.module.js');
  const { ENTITIES } = await dist('entities.js');
  const { ChatModule } = await dist('chat/chat.module.js');
  const { ChatService } = await dist('chat/chat.service.js');
  const { TurnRecall } = await dist('recall/turn-recall.js');
  const { SINGLE_USER_ACTOR: OWNER } = await dist('actor-auth/actor.js');
  const { dir, remove } = tempDir('recall-cost');
  const dbPath = join(dir, 'recall-cost.sqlite');
  const open = async (env = {}) => {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${dbPath}`,
      MAX_MESSAGES_PER_CONVERSATION: '0',
      MAX_CONVERSATIONS_PER_ACTOR: '0',
      ...env,
    });
    class RecallCostModule {}
    const app = await NestFactory.createApplicationContext(
      {
        module: RecallCostModule,
        imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(config, ENTITIES), ChatModule],
      },
      { logger: false },
    );
    await app.init();
    return app;
  };
  try {
    let app = await open();
    const { conversationId: templateId } = await app
      .get(ChatService)
      .run({ id: 'api:bench-template' }, { ask: { message: SEED_USER } });
    await app.close();
    const raw = new Database(dbPath);
    raw.pragma('journal_mode = WAL');
    const seeder = templateSeeder(raw, templateId);
    seeder.seed({ actor: 'api:filler', conversations: 999, length: 100 });
    const [id] = seeder.seed({ actor: OWNER.id, conversations: 1, length: 100_000 });
    seeder.done();
    raw.close();

    const slices = quick ? 2 : 3;
    const turns = quick ? 100 : 300;
    const p50 = { on: [], off: [], recall: [] };
    for (let s = 0; s < slices; s++) {
      for (const mode of ['on', 'off']) {
        app = await open({ RECALL_MODE: mode });
        const chat = app.get(ChatService);
        const times = [];
        for (let i = 0; i < turns + 20; i++) {
          const t0 = performance.now();
          await chat.run(OWNER, { ask: { message: `${SEED_USER} (${i})`, conversationId: id } });
          if (i >= 20) times.push(performance.now() - t0);
        }
        p50[mode].push(summarize(times).p50);
        if (mode === 'on') {
          const recall = app.get(TurnRecall, { strict: false });
          const alone = [];
          for (let i = 0; i < turns; i++) {
            const t0 = performance.now();
            await recall.forMessage(OWNER, `${SEED_USER} (${i})`);
            alone.push(performance.now() - t0);
          }
          p50.recall.push(summarize(alone).p50);
        }
        await app.close();
      }
      log(
        `  slice ${s + 1}/${slices}: turn p50 with recall ${round(p50.on.at(-1), 3)} ms, without ${round(p50.off.at(-1), 3)} ms; recall alone ${round(p50.recall.at(-1), 3)} ms`,
      );
    }
    const added = p50.on.map((v, i) => v - p50.off[i]);
    return {
      slices,
      turns,
      withRecallP50: spread(p50.on),
      withoutRecallP50: spread(p50.off),
      addedP50: spread(added),
      recallAloneP50: spread(p50.recall),
    };
  } finally {
    remove();
  }
}
