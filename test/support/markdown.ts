// Just enough Markdown for the docs checks: the code spans and link targets a page's prose
// holds (fenced blocks left out: they show commands and output, not references), and the
// anchors GitHub gives its headings.

/** Something found on a page, with the line it starts on. */
export interface Found {
  readonly line: number;
  readonly text: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** The page with every fenced block blanked out, its lines kept, so offsets still give line numbers. */
function prose(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      if (fence === undefined) {
        fence = FENCE.exec(line)?.[1];
        return fence === undefined ? line : '';
      }
      const closing = CLOSING_FENCE.exec(line)?.[1];
      if (closing !== undefined && closing[0] === fence[0] && closing.length >= fence.length) fence = undefined;
      return '';
    })
    .join('\n');
}

/** The line number of an offset of `text`. */
function lineNumbers(text: string): (offset: number) => number {
  const starts = [...text.matchAll(/\n/g)].map((match) => match.index + 1);
  return (offset) => {
    let line = 0;
    while (line < starts.length && starts[line]! <= offset) line++;
    return line + 1;
  };
}

const CODE_SPAN = /(`+)([\s\S]+?)\1(?!`)/g;
const LINK = /\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** The paragraphs of `text` with their offsets: a code span or a link never crosses a blank line. */
function paragraphs(text: string): { index: number; text: string }[] {
  const found: { index: number; text: string }[] = [];
  let start = 0;
  for (const gap of text.matchAll(/\n[ \t]*\n/g)) {
    found.push({ index: start, text: text.slice(start, gap.index) });
    start = gap.index + gap[0].length;
  }
  found.push({ index: start, text: text.slice(start) });
  return found;
}

/** Group `group` of each match of `pattern` in the prose of `markdown` (code spans blanked out first unless `inCode`), with its line. */
function matches(markdown: string, pattern: RegExp, group: number, inCode: boolean): Found[] {
  const text = prose(markdown);
  const lineAt = lineNumbers(text);
  return paragraphs(text).flatMap(({ index, text: paragraph }) => {
    const searched = inCode ? paragraph : paragraph.replace(CODE_SPAN, (span) => span.replace(/[^\n]/g, ' '));
    return [...searched.matchAll(pattern)].map((match) => ({ line: lineAt(index + match.index), text: match[group]! }));
  });
}

/** The text of every code span outside the fenced blocks, with its inner white space collapsed. */
export const codeSpans = (markdown: string): Found[] =>
  matches(markdown, CODE_SPAN, 2, true).map(({ line, text }) => ({ line, text: text.trim().replace(/\s+/g, ' ') }));

/** The target of every inline link and image outside code, as written (`../x.md#anchor`). */
export const linkTargets = (markdown: string): Found[] => matches(markdown, LINK, 1, false);

/** Every `](` outside code whose target is not closed by `)` on its line: a link that renders as its raw text. */
export const unclosedLinks = (markdown: string): Found[] => matches(markdown, /\]\((?![^)\n]*\))[^\n]*/g, 0, false);

/** The anchor GitHub gives a heading: its text, without markup and punctuation, in lower case, spaces as hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page offers: its headings' (a repeated one numbered -1, -2 … as GitHub does) and its HTML ids. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const text = prose(markdown);
  for (const [, heading] of text.matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)) {
    const slug = githubSlug(heading!);
    let unique = slug;
    for (let n = 1; found.has(unique); n++) unique = `${slug}-${n}`;
    found.add(unique);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(id!);
  return found;
}
