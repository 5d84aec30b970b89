// Every command and option `petstore help` prints is in docs/operations.md, so an operator who
// reads that page finds every tool the command offers.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { USAGE } from '../../src/commands/support/usage.js';

/** The commands of the usage text's `Commands:` list, by their words: `serve`, `keys create`. */
function commandsOf(usage: string): string[] {
  const list = usage.slice(usage.indexOf('Commands:\n'), usage.indexOf('\n\n', usage.indexOf('Commands:\n')));
  // A command's line is indented by two spaces; its description's further lines, by more.
  return [...list.matchAll(/^ {2}(\S.*)$/gm)].map(([, line]) => {
    const words = line!.split(/\s{2,}/)[0]!.split(' ');
    const argument = words.findIndex((word) => /^[[<-]/.test(word));
    return words.slice(0, argument === -1 ? undefined : argument).join(' ');
  });
}

const optionsOf = (usage: string): string[] => [...new Set(usage.match(/--[a-z][a-z-]*/g))];
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the petstore command in docs/operations.md', () => {
  const operations = readFileSync('docs/operations.md', 'utf8');

  it('names every command of the help as `petstore <command>`', () => {
    const commands = commandsOf(USAGE);
    expect(commands).to.include.members(['serve', 'keys create', 'webhooks redeliver', 'copy', 'help']);
    const missing = commands.filter((command) => !new RegExp(`petstore ${escaped(command)}(?![\\w-])`).test(operations));
    expect(missing, 'commands of `petstore help` that docs/operations.md does not name').to.deep.equal([]);
  });

  it('names every option of the help', () => {
    const options = optionsOf(USAGE);
    expect(options).to.include.members(['--json', '--quiet', '--from']);
    const missing = options.filter((option) => !new RegExp(`${option}(?![\\w-])`).test(operations));
    expect(missing, 'options of `petstore help` that docs/operations.md does not name').to.deep.equal([]);
  });
});
