// `petstore categories register-used`: registers, as `Category <id>`, every categoryId the
// stored pets use and no category has, so that an upgraded store can switch to
// PETSTORE_CATEGORIES=registered without refusing its own pets. Registering again adds nothing.
import 'reflect-metadata';
import { onDatabase, type Output } from './support/database-command.js';
import { TOKENS } from '../composition/index.js';
import type { CategoryRepository, RegisteredCategories } from '../domain/index.js';

/** What `categories` was asked to do, once its arguments are parsed. */
export type CategoriesRequest = { readonly action: 'register-used' };

function report({ registered, nameTaken }: RegisteredCategories, output: Output): number {
  if (registered.length === 0 && nameTaken.length === 0) {
    output.out('Every category the pets use is registered already: nothing to do.\n');
    return 0;
  }
  if (registered.length > 0) {
    output.out(`Registered ${registered.length} ${registered.length === 1 ? 'category' : 'categories'} the pets use:\n`);
    for (const category of registered) output.out(`  ${category.id}  ${category.name}\n`);
  }
  if (nameTaken.length === 0) return 0;
  output.err(
    `petstore: not registered, as another category holds the name "Category <id>": ${nameTaken.join(', ')}. ` +
      'Rename that category (PATCH /v1/categories/{id}) and run this command again.\n',
  );
  return 1;
}

/** Runs `categories` on the database `env` configures; answers the exit code (0 done, 1 failed). */
export const categories = (
  _request: CategoriesRequest,
  env: Readonly<Record<string, string | undefined>>,
  output: Output,
): Promise<number> =>
  onDatabase<CategoryRepository>(env, output, 'categories', { token: TOKENS.CategoryRepository, creates: false }, async (repository) =>
    report(await repository.registerUsed(), output),
  );
