import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { SharingService } from './sharing.service.js';

/** Share links of conversations (the `shares` table). */
@Module({
  imports: [ConversationsModule],
  providers: [SharingService],
  exports: [SharingService],
})
export class SharingModule {}
