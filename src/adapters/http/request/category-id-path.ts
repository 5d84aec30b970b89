// The {categoryId} of /categories/{categoryId} (see id-path.ts): signed, as categories
// registered from pets' numbers may be negative.
import { type CategoryId, type CategoryNotFound, categoryNotFound } from '../../../domain/index.js';
import { idPath } from './id-path.js';
import { CategoryPathParams } from './parameters.js';

const categoryIdPath = idPath<CategoryId, CategoryNotFound, 'categoryId'>(CategoryPathParams, 'categoryId', categoryNotFound);

/** Decodes the path's categoryId for {@link categoryIdOf}, or answers 400 naming it. */
export const readCategoryId = categoryIdPath.read;

/** The category id readCategoryId decoded; one beyond ±(2^53−1) is one no category can have. */
export const categoryIdOf = categoryIdPath.idOf;
