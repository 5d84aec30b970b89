// The rule `registered` of PetRepository, run against every adapter, each beside the categories of its storage.
import { forEveryStorage } from '../support/every-storage.js';
import { CATEGORY_STORAGE } from '../support/category-storage.js';
import { registeredCategoriesContract } from './registered-categories.contract.js';

forEveryStorage(CATEGORY_STORAGE, (name, open) => registeredCategoriesContract(name, open));
