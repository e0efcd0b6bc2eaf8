import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { RecallService } from './recall.service.js';
import { TurnRecall } from './turn-recall.js';

/** Ranked search over an actor's history (and, for the turn, what of it to recall). */
@Module({
  imports: [ConversationsModule],
  providers: [RecallService, TurnRecall],
  exports: [RecallService, TurnRecall],
})
export class RecallModule {}
