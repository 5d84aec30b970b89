import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import Koa from 'koa';

// The HTTP adapter reads and writes through ctx.request and ctx.response, never Koa's aliases on
// ctx: each alias is a `delegates` getter, setter or method shared by all the aliases, so V8
// cannot keep one call site fast for any of them (src/adapters/http/response/respond.ts).
const HTTP_ADAPTER = 'src/adapters/http';

/** The names Koa's context delegates to its request or response, read from Koa itself. */
function koaAliases(): string[] {
  const app = new Koa();
  const context = Object.getPrototypeOf(app.context) as object;
  const request = Object.getPrototypeOf(app.request) as object;
  const response = Object.getPrototypeOf(app.response) as object;
  const ownOfContext = new Set(['constructor', 'inspect', 'toJSON']);
  return Object.getOwnPropertyNames(context).filter((name) => !ownOfContext.has(name) && (name in request || name in response));
}

/** Each use of an alias in `source`, as `file:line: text`; comments are not code. */
function aliasUses(file: string, source: string, aliases: readonly string[]): string[] {
  const names = aliases.join('|');
  const member = new RegExp(`\\bctx\\.(${names})\\b`);
  const destructured = new RegExp(`\\{([^}]*)\\}\\s*=\\s*ctx\\s*[;,)]`);
  return source.split('\n').flatMap((line, index) => {
    const code = line.trim();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return [];
    const fields =
      destructured
        .exec(code)?.[1]
        ?.split(',')
        .map((field) => field.split(':')[0]!.trim()) ?? [];
    return member.test(code) || fields.some((field) => aliases.includes(field)) ? [`${file}:${index + 1}: ${code}`] : [];
  });
}

describe('the HTTP adapter and Koa', () => {
  it('finds the aliases in Koa itself: body, status and set to the response, get and method to the request', () => {
    expect(koaAliases()).to.include.members(['body', 'status', 'set', 'type', 'get', 'method', 'querystring', 'path', 'url', 'ip']);
    expect(koaAliases()).not.to.include.members(['state', 'request', 'response', 'originalUrl']);
  });

  it('uses ctx.request and ctx.response, never an alias of theirs on ctx', () => {
    const aliases = koaAliases();
    const files = readdirSync(HTTP_ADAPTER, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    expect(files.length).to.be.greaterThan(10);
    const uses = files.flatMap((file) => aliasUses(file, readFileSync(join(HTTP_ADAPTER, file), 'utf8'), aliases));
    expect(uses).to.deep.equal([]);
  });

  it('catches an alias as a member, as an assignment and when destructured, but not in a comment or on ctx.request', () => {
    const aliases = koaAliases();
    const source = [
      'ctx.body = x;',
      'if (ctx.status === 404) {}',
      'const { method, state } = ctx;',
      'ctx.set("A", "b");',
      '// ctx.body in a comment',
      'ctx.response.body = x; ctx.request.get("A"); ctx.state.caller = c;',
      'const { state } = ctx;',
    ].join('\n');
    expect(aliasUses('f.ts', source, aliases).map((use) => use.split(':')[1])).to.deep.equal(['1', '2', '3', '4']);
  });
});
