import { Module } from '@nestjs/common';
import { ContextAssembler } from './context-assembler.js';
import { TokenCounter } from './token-counter.js';

/** Token counting and context planning. */
@Module({
  providers: [TokenCounter, ContextAssembler],
  exports: [TokenCounter, ContextAssembler],
})
export class ContextModule {}
