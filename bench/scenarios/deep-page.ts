// Reaches a page deep in the data the way a client would: from the first page, following
// each `Link: <…>; rel="next"` (RFC 8288) until the wanted depth.
import { request } from 'node:http';

/** The target of the `rel="next"` link of a Link header, or undefined when there is none. */
export function nextLink(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  // Each link-value: <target> followed by ;-separated parameters; rel may list several relations.
  for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2] ?? '');
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (relations.includes('next')) return match[1];
  }
  return undefined;
}

function linkOf(url: URL, headers: Record<string, string>): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      if (res.statusCode !== 200) reject(new Error(`GET ${url.pathname}${url.search} answered ${res.statusCode}`));
      const link = res.headers['link'];
      res.on('end', () => resolve(nextLink(Array.isArray(link) ? link.join(', ') : link)));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The path and query of the page reached after following `pages` next links from `firstPath`,
 * or undefined when the server sends no next link on the first page (it does not page).
 */
export async function deepPagePath(
  origin: string,
  firstPath: string,
  pages: number,
  headers: Record<string, string>,
): Promise<string | undefined> {
  let url = new URL(firstPath, origin);
  for (let followed = 0; followed < pages; followed++) {
    const target = await linkOf(url, headers);
    if (target === undefined) {
      if (followed === 0) return undefined;
      throw new Error(`the data ended after ${followed} pages, before the ${pages} asked for`);
    }
    url = new URL(target, url);
    if (url.origin !== origin) throw new Error(`a next link leaves the server: ${url.href}`);
  }
  return `${url.pathname}${url.search}`;
}
