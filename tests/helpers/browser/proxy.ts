/**
 * What a proxy in front of the gallery does that the gallery never does, for browser tests of how the page copes:
 * the proxy is not our server, so the browser's request is answered in its place.
 */
import type { Page, Route } from 'playwright-core';

/** nginx's own page for a body over its client_max_body_size. */
const NGINX_413_PAGE =
  '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/**
 * From now on the page's POSTs to `url` are refused as a proxy with a body limit refuses them: HTTP 413 with a page
 * of HTML, never our JSON. Other methods go through. Answers a function that opens the way again.
 */
export async function proxyRefusesAsTooLarge(page: Page, url: RegExp): Promise<() => Promise<void>> {
  const refuse = (route: Route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 413, contentType: 'text/html', body: NGINX_413_PAGE })
      : route.fallback();
  await page.route(url, refuse);
  return () => page.unroute(url, refuse);
}
