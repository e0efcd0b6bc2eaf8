/**
 * Thrown by a handler that cannot answer its update now and must not answer it wrongly (a
 * replayed turn whose reply is still being generated while this process shuts down): the
 * update stays pending and is handled again later, by this process's successor or another
 * instance. No message is sent for it.
 */
export class UpdateDeferred extends Error {
  constructor(reason: string) {
    super(reason);
  }
}
