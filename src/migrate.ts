// `npm run migrate` (node dist/migrate.js): the same as `petstore migrate`.
import { migrate } from './commands/migrate.js';

process.exitCode = await migrate(process.env);
