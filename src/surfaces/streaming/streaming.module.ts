import { Module } from '@nestjs/common';
import { StreamSlots } from './stream-slots.js';

/** What the streams of every surface share at run time: one count of open streams per actor (MAX_STREAMS_PER_ACTOR). */
@Module({
  providers: [StreamSlots],
  exports: [StreamSlots],
})
export class StreamingModule {}
