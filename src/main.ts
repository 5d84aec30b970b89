// The server process, as `npm start` runs it (node dist/main.js): the same as `petstore serve`.
import { serve } from './commands/serve.js';

process.exitCode = await serve(process.env);
