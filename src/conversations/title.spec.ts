import { TITLE_MAX_CHARS, titleFromFirstMessage, titleFromMessage, UNTITLED } from './title.js';

describe('titles', () => {
  it('a first message titles its conversation without its Markdown', () => {
    expect(titleFromFirstMessage('# How do I *really* learn `git rebase`?')).toBe('How do I really learn git rebase?');
    expect(titleFromFirstMessage('**Bold** and __strong__, ~~gone~~ _em_')).toBe('Bold and strong, gone em');
    expect(titleFromFirstMessage('See [the docs](https://example.com/x) and ![a cat](cat.png)')).toBe(
      'See the docs and a cat',
    );
    expect(titleFromFirstMessage('> quoted question\n- item one\n- item two\n1. first')).toBe(
      'quoted question item one item two first',
    );
    expect(titleFromFirstMessage('| Name | Age |\n| --- | ---: |\n| Ann | 31 |')).toBe('Name Age Ann 31');
    expect(titleFromFirstMessage('```ts\nconst x = 1;\n```\nWhy does this fail?')).toBe(
      'const x = 1; Why does this fail?',
    );
    expect(titleFromFirstMessage('<b>hi</b> there')).toBe('hi there');
  });

  it('keeps what is not Markdown: snake_case, arithmetic, C#', () => {
    expect(titleFromFirstMessage('rename my_var_name to 2 * 3 = 6')).toBe('rename my_var_name to 2 * 3 = 6');
    expect(titleFromFirstMessage('Is C# or F# better?')).toBe('Is C# or F# better?');
  });

  it('falls back to the untitled name when nothing is left, and cuts at the limit', () => {
    expect(titleFromFirstMessage('```\n```')).toBe(UNTITLED);
    expect(titleFromFirstMessage('---')).toBe(UNTITLED);
    expect(Array.from(titleFromFirstMessage(`# ${'word '.repeat(50)}`))).toHaveLength(TITLE_MAX_CHARS);
  });

  it('reads a bounded prefix of a huge message, whatever it holds', () => {
    const hostile = '['.repeat(200_000) + '*'.repeat(200_000) + '|'.repeat(200_000);
    expect(titleFromFirstMessage(hostile)).toBe('['.repeat(TITLE_MAX_CHARS));
    expect(titleFromFirstMessage(`${'# '.repeat(300_000)}Hello`)).toBe(UNTITLED);
  });

  it('a title given by the user keeps its characters', () => {
    expect(titleFromMessage('**My** | table')).toBe('**My** | table');
  });
});
