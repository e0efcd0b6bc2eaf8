// A minimal OpenAI-compatible chat completions server on 127.0.0.1 for benchmarks (the bench
// runs plain Node and cannot import test/fakes/*.ts). It keeps nothing per request, so the
// memory of the service under test is the only thing that can grow; `onRequest` (optional) is
// handed each request body, for a section that checks what the model was sent.
import { createServer } from 'node:http';
import { HOST } from './common.mjs';

export async function startFakeOpenAi({ onRequest } = {}) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        /* answered anyway */
      }
      onRequest?.(body);
      const last = body.messages?.at(-1)?.content ?? '';
      const text = `reply to: ${String(last).slice(0, 80)}`;
      const usage = { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 };
      const base = { id: 'chatcmpl-bench', created: Math.floor(Date.now() / 1000), model: 'bench-model' };
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish, extra = {}) =>
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }, null));
      for (const word of text.match(/\S+\s*/g) ?? []) res.write(chunk({ content: word }, null));
      res.write(chunk({}, 'stop', { usage }));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, HOST, resolve));
  return {
    url: `http://${HOST}:${server.address().port}/v1`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
