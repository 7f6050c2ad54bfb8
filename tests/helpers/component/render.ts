/**
 * Components rendered without a browser (react-dom/server), inside the app's own providers: React Query and tRPC,
 * the reserved-cell context and a router at a given address. What the component reads through tRPC is asked of the
 * real server first, through the app's own tRPC client over Fastify's inject (as the signed-in member, with their
 * session cookie), and put in the query cache: the markup is then what the page shows once those answers arrived.
 * The markup is parsed (it is well-formed XML) into a small tree to query by test id, role and text.
 */
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { getQueryKey } from '@trpc/react-query';
import { SaxesParser } from 'saxes';
import type { AppRouter } from '#server/root.ts';
import { TRPC_MAX_BATCH } from '#shared/constants.ts';
import { trpc } from '#client/api/trpc.ts';
import { ReservedCellProvider } from '#client/app/reserved-cell.ts';
import { RouterView } from '#client/router/react.tsx';
import { createMemoryRouter } from '#client/router/router.ts';
import type { TestApp } from '../server/test-app.ts';

/** A CSRF token the client sends as its cookie and its header alike (decision 004), as the page does. */
const CSRF = 'C'.repeat(32);

/**
 * The app's tRPC client, its requests answered by the test app in-process (Fastify's inject), as the owner of the
 * session `cookie` (`session=…`, from TestApp.addUser) or a guest.
 */
export function apiClient(t: TestApp, cookie = '') {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: 'http://gallery.test/trpc',
        maxItems: TRPC_MAX_BATCH,
        headers: () => ({
          'x-requested-with': 'XMLHttpRequest',
          'x-csrf-token': CSRF,
          cookie: [cookie, `csrf=${CSRF}`].filter(Boolean).join('; '),
        }),
        // The link asks with a URL string, and sends a batch's body as a JSON string.
        fetch: async (input, init) => {
          const url = new URL(input as string);
          const answer = await t.server.inject({
            method: (init?.method ?? 'GET') as 'GET' | 'POST',
            url: `${url.pathname}${url.search}`,
            headers: Object.fromEntries(new Headers(init?.headers as HeadersInit).entries()),
            ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
          });
          return new Response(answer.body, {
            status: answer.statusCode,
            headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
          });
        },
      }),
    ],
  });
}

/** One query's answer in the cache, keyed as the React client keys it. */
export interface Answer {
  key: ReturnType<typeof getQueryKey>;
  data: unknown;
}

/** A query procedure of the React client (trpc.cell.reservation, say), its input, and what the server said. */
export function answered(procedure: Parameters<typeof getQueryKey>[0], input: unknown, data: unknown): Answer {
  const keyOf = getQueryKey as (procedure: unknown, input: unknown, type: 'query') => Answer['key'];
  return { key: keyOf(procedure, input, 'query'), data };
}

/**
 * The element's markup inside the app's providers, at `path` (matched against `route` for its parameters), with the
 * given answers in the query cache; nothing is fetched while rendering.
 */
export function renderInApp(
  element: ReactElement,
  { path = '/', route = '*', queries = [] }: { path?: string; route?: string; queries?: Answer[] } = {},
): Markup {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  for (const { key, data } of queries) queryClient.setQueryData(key, data);
  const client = trpc.createClient({ links: [httpBatchLink({ url: 'http://gallery.test/trpc' })] });
  const tree = createElement(trpc.Provider, {
    client,
    queryClient,
    children: createElement(
      QueryClientProvider,
      { client: queryClient },
      createElement(
        ReservedCellProvider,
        null,
        createElement(RouterView, { router: createMemoryRouter([{ path: route, element }], path) }),
      ),
    ),
  });
  const markup = parseMarkup(renderToStaticMarkup(tree));
  queryClient.clear();
  return markup;
}

export interface Node {
  name: string;
  attributes: Record<string, string>;
  children: (Node | string)[];
}

/** The rendered markup as a tree, with the questions tests ask of it. */
export class Markup {
  constructor(readonly root: Node) {}

  /** Every element, in document order, that `test` accepts. */
  all(test: (node: Node) => boolean, from: Node = this.root): Node[] {
    const found: Node[] = [];
    const visit = (node: Node) => {
      if (test(node)) found.push(node);
      for (const child of node.children) if (typeof child !== 'string') visit(child);
    };
    for (const child of from.children) if (typeof child !== 'string') visit(child);
    return found;
  }

  /** The one element with this data-testid (throws when none or several). */
  byTestId(id: string, from?: Node): Node {
    const found = this.all((node) => node.attributes['data-testid'] === id, from);
    if (found.length !== 1) throw new Error(`${found.length} elements with data-testid="${id}".`);
    return found[0]!;
  }

  has(id: string): boolean {
    return this.all((node) => node.attributes['data-testid'] === id).length > 0;
  }

  /** The element's text, whitespace runs made one space, trimmed. */
  text(node: Node = this.root): string {
    const collect = (n: Node): string =>
      n.children.map((child) => (typeof child === 'string' ? child : collect(child))).join('');
    return collect(node).replace(/\s+/g, ' ').trim();
  }

  /** Links (`<a href>`) by their text. */
  link(text: string, from?: Node): Node {
    const found = this.all((node) => node.name === 'a' && this.text(node) === text, from);
    if (found.length !== 1) throw new Error(`${found.length} links reading "${text}".`);
    return found[0]!;
  }

  /** Buttons by their text. */
  button(text: string, from?: Node): Node {
    const found = this.all((node) => node.name === 'button' && this.text(node) === text, from);
    if (found.length !== 1) throw new Error(`${found.length} buttons reading "${text}".`);
    return found[0]!;
  }

  /** The element whose id is `id`. */
  byId(id: string): Node {
    const found = this.all((node) => node.attributes.id === id);
    if (found.length !== 1) throw new Error(`${found.length} elements with id "${id}".`);
    return found[0]!;
  }
}

/** Parses React's server markup (well-formed XML once given one root) into a tree; throws on malformed markup. */
export function parseMarkup(html: string): Markup {
  const root: Node = { name: '#root', attributes: {}, children: [] };
  const stack: Node[] = [root];
  const parser = new SaxesParser();
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const node: Node = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, children: [] };
    stack.at(-1)!.children.push(node);
    if (!tag.isSelfClosing) stack.push(node);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  parser.on('text', (text) => stack.at(-1)!.children.push(text));
  parser.write(`<root>${html}</root>`).close();
  return new Markup(root.children[0] as Node);
}
