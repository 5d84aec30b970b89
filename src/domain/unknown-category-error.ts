// A write under PETSTORE_CATEGORIES=registered whose categoryId names no category. The
// repository finds it in the write's own transaction, where a concurrent delete of the
// category cannot slip between the check and the write; the use cases turn it into their
// `unknown_category` result, so it never reaches a driving adapter.
import type { CategoryId } from './pet.js';

/** The pet was not stored: with the rule `registered`, its category must exist. */
export class UnknownCategoryError extends Error {
  override readonly name = 'UnknownCategoryError';

  constructor(readonly categoryId: CategoryId) {
    super(`no category has id ${categoryId}`);
  }
}
