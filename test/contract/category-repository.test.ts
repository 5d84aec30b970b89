// The CategoryRepository contract, run against every adapter of the port, each beside the pets and the outbox of its storage.
import { forEveryStorage } from '../support/every-storage.js';
import { CATEGORY_STORAGE } from '../support/category-storage.js';
import { categoryRepositoryContract } from './category-repository.contract.js';

forEveryStorage(CATEGORY_STORAGE, (name, open) => categoryRepositoryContract(name, open));
