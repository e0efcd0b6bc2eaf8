import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../../support/test-app.js';

const run = promisify(execFile);
/** Each compile starts tsc afresh: seconds each on a busy machine. */
const COMPILES = 180_000;
const SCRIPT = join(process.cwd(), 'scripts', 'build-if-changed.mjs');

/**
 * `npm start`, `npm run keys` and `npm run chat` compile through scripts/build-if-changed.mjs:
 * here it runs on a small project of its own (the same file names as ours), so what it decides is
 * seen without compiling the service.
 */
describe('build only when a source changed (scripts/build-if-changed.mjs)', () => {
  let tmp: ReturnType<typeof tempDir>;
  const build = () => run(process.execPath, [SCRIPT], { cwd: tmp.dir });

  beforeAll(() => {
    tmp = tempDir();
    mkdirSync(join(tmp.dir, 'src'));
    writeFileSync(
      join(tmp.dir, 'tsconfig.build.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          outDir: 'dist',
          rootDir: '.',
          types: [],
          strict: true,
          // Not checking TypeScript's own lib files makes each compile about twice as fast.
          skipLibCheck: true,
        },
        include: ['src'],
      }),
    );
    writeFileSync(join(tmp.dir, 'src', 'a.ts'), 'export const a: number = 1;\n');
    writeFileSync(join(tmp.dir, 'src', 'b.ts'), 'export const b: number = 2;\n');
  });
  afterAll(() => tmp.remove());

  it(
    'compiles the first time, skips the compiler while nothing changed, and compiles again after an edit, a new or a deleted file',
    async () => {
      const first = await build();
      expect(first.stderr).toContain('Compiling');
      expect(readFileSync(join(tmp.dir, 'dist', 'src', 'a.js'), 'utf8')).toContain('a = 1');

      const again = await build();
      expect(again.stderr).toBe('');

      writeFileSync(join(tmp.dir, 'src', 'a.ts'), 'export const a: number = 3;\n');
      expect((await build()).stderr).toContain('Compiling');
      expect(readFileSync(join(tmp.dir, 'dist', 'src', 'a.js'), 'utf8')).toContain('a = 3');
      expect((await build()).stderr).toBe('');

      writeFileSync(join(tmp.dir, 'src', 'c.ts'), 'export const c: number = 4;\n');
      expect((await build()).stderr).toContain('Compiling');
      expect(existsSync(join(tmp.dir, 'dist', 'src', 'c.js'))).toBe(true);

      // A deleted source takes its compiled file with it: nothing stale is left to import.
      rmSync(join(tmp.dir, 'src', 'b.ts'));
      expect((await build()).stderr).toContain('Compiling');
      expect(existsSync(join(tmp.dir, 'dist', 'src', 'b.js'))).toBe(false);
      expect((await build()).stderr).toBe('');
    },
    COMPILES,
  );

  it(
    'fails with the compiler errors and tries again next time, and compiles again when dist/ is gone',
    async () => {
      writeFileSync(join(tmp.dir, 'src', 'a.ts'), 'export const a: number = "not a number";\n');
      await expect(build()).rejects.toMatchObject({ code: 2, stdout: expect.stringContaining('TS2322') });
      await expect(build()).rejects.toMatchObject({ code: 2 });
      writeFileSync(join(tmp.dir, 'src', 'a.ts'), 'export const a: number = 5;\n');
      expect((await build()).stderr).toContain('Compiling');

      rmSync(join(tmp.dir, 'dist'), { recursive: true });
      expect((await build()).stderr).toContain('Compiling');
      expect(readFileSync(join(tmp.dir, 'dist', 'src', 'a.js'), 'utf8')).toContain('a = 5');
    },
    COMPILES,
  );
});
