import { jest } from '@jest/globals';
import { ConsoleLogger } from '@nestjs/common';
import { AppLogger, type AppLoggerOptions } from './app-logger.js';
import { runInRequestScope } from './request-scope.js';

/** What the logger writes to stdout and stderr while `work` runs. */
function written(work: () => void): string[] {
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  const [out, err] = [process.stdout.write, process.stderr.write];
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  try {
    work();
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  return lines;
}

const text = (over: Partial<AppLoggerOptions> = {}) =>
  new AppLogger({ format: 'text', level: 'log', terminal: false, ...over });

describe('AppLogger', () => {
  it("drops Nest's start-up lines (modules, routes) at the default level, and shows them at debug", () => {
    const quiet = written(() => {
      text().log('Mapped {/api/chat, POST} route', 'RouterExplorer');
      text().log('AppModule dependencies initialized', 'InstanceLoader');
      text().log('Listening on http://127.0.0.1:3000', 'Bootstrap');
    });
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).toContain('Listening on');
    expect(
      written(() => text({ level: 'debug' }).log('Mapped {/api/chat, POST} route', 'RouterExplorer')),
    ).toHaveLength(1);
    expect(written(() => text({ level: 'warn' }).log('Listening', 'Bootstrap'))).toHaveLength(0);
  });

  it('writes no ANSI colours unless the output is a terminal', () => {
    const [plain] = written(() => text().warn('disk nearly full', 'Storage'));
    expect(plain).not.toMatch(/\x1b\[/);
    const previous = process.env.NO_COLOR;
    delete process.env.NO_COLOR;
    try {
      const [coloured] = written(() => text({ terminal: true }).warn('disk nearly full', 'Storage'));
      expect(coloured).toMatch(/\x1b\[/);
    } finally {
      if (previous !== undefined) process.env.NO_COLOR = previous;
    }
  });

  it('adds the request id and the actor to every line written while a request is served', () => {
    let actor: string | undefined;
    const scope = { requestId: 'req-1', actor: () => actor };
    const [before, after] = written(() =>
      runInRequestScope(scope, () => {
        text().log('started', 'ChatService');
        actor = 'api:alice';
        text().warn('failed: model_unavailable', 'ReplyGenerator');
      }),
    );
    expect(before).toMatch(/started actor=- request=req-1\n$/);
    expect(after).toMatch(/failed: model_unavailable actor=api:alice request=req-1\n$/);
    expect(written(() => text().log('no request', 'Janitor'))[0]).not.toContain('request=');
  });

  it('writes one JSON object per line, with requestId and actor as fields', () => {
    const [line] = written(() =>
      runInRequestScope({ requestId: 'req-2', actor: () => 'api:bob' }, () =>
        new AppLogger({ format: 'json', level: 'log', terminal: true }).log('hello', 'ChatService'),
      ),
    );
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toMatchObject({
      level: 'log',
      context: 'ChatService',
      message: 'hello',
      requestId: 'req-2',
      actor: 'api:bob',
    });
  });

  it("stamps each line with Nest's timestamp of the second it is written in", () => {
    jest.useFakeTimers({ now: Date.UTC(2026, 11, 2, 0, 30, 15, 400) });
    try {
      const logger = text();
      const stampOf = (line: string) => line.replace(/^\[Nest\] \d+ +- /, '').replace(/ +LOG .*\n$/s, '');
      const nest = (write: () => void) => stampOf(written(write)[0]);
      const first = nest(() => logger.log('one', 'Test'));
      expect(first).toBe(nest(() => new ConsoleLogger({ colors: false }).log('one', 'Test')));
      jest.setSystemTime(Date.UTC(2026, 11, 2, 0, 30, 15, 999));
      expect(nest(() => logger.log('two', 'Test'))).toBe(first);
      jest.setSystemTime(Date.UTC(2026, 11, 2, 0, 30, 16, 0));
      const next = nest(() => logger.log('three', 'Test'));
      expect(next).not.toBe(first);
      expect(next).toBe(nest(() => new ConsoleLogger({ colors: false }).log('three', 'Test')));
    } finally {
      jest.useRealTimers();
    }
  });
});
