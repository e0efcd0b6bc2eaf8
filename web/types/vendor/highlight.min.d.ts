// The type of /vendor/highlight.min.js, which the service serves from node_modules/@highlightjs/cdn-assets
// (a browser build that ships no types): the part of highlight.js's API the page uses.
declare const hljs: {
  getLanguage(name: string): { name?: string } | undefined;
  highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string; language?: string };
};
export default hljs;
