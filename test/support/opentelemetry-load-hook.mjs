// The resolve hook of report-opentelemetry-loaded.mjs (module hooks run on a thread of their
// own): each URL of an @opentelemetry/* package resolved is appended to the report file.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const report = process.env.OPENTELEMETRY_LOAD_REPORT;
  if (report !== undefined && resolved.url.includes('/node_modules/@opentelemetry/')) appendFileSync(report, `${resolved.url}\n`);
  return resolved;
}
