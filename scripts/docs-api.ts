/**
 * `npm run docs:api`: writes the REST table and the example answers of docs/api.md from the routes' declarations
 * (decision 036), between the file's `<!-- BEGIN … -->` and `<!-- END … -->` markers; the rest of the page is prose,
 * edited by hand. tests/server/api-docs.test.ts fails, naming the lines that differ, while the file is not what this
 * writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { restRoutes, type ListedRoute } from '#server/rest/routes.ts';

export const API_DOC_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/api.md');

const WIDTH = 120;

/** `/api/cell/:cellToken` as the page writes it: `/api/cell/{cellToken}`. */
const pathOnPage = (route: ListedRoute) => route.path.replace(/:(\w+)/g, '{$1}');

/**
 * JSON as the page has always shown it: every object open, a list of plain values on one line when it fits in 120
 * characters, else one value a line.
 */
function formatJson(value: unknown, indent = '', before = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((item) => item === null || typeof item !== 'object')) {
      const flat = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
      // The comma after it counts, as it shares the line.
      if (indent.length + before.length + flat.length + 1 <= WIDTH) return flat;
    }
    return `[\n${value.map((item) => inner + formatJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, item]) => {
      const head = `${JSON.stringify(key)}: `;
      return inner + head + formatJson(item, inner, head);
    });
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function restTable(routes: ListedRoute[]): string {
  const rows = routes.map(
    (route) => `| ${route.method} | \`${pathOnPage(route)}\` | ${route.who} | ${route.does} | ${route.via} |`,
  );
  return [
    '| method | path | who may call it | what it does | procedure |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

function exampleAnswers(routes: ListedRoute[]): string {
  return routes
    .map((route) => `### ${route.method} ${pathOnPage(route)}\n\n\`\`\`json\n${formatJson(route.example)}\n\`\`\``)
    .join('\n\n');
}

/** Puts `content` between the markers named `name`, which the page must hold once each. */
function fill(doc: string, name: string, content: string): string {
  const begin = `<!-- BEGIN ${name}: written by \`npm run docs:api\` from the routes' declarations; edit those -->`;
  const end = `<!-- END ${name} -->`;
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from || doc.indexOf(begin, from + 1) >= 0) {
    throw new Error(`docs/api.md must hold the line "${begin}" once, and "${end}" after it.`);
  }
  return `${doc.slice(0, from + begin.length)}\n\n${content}\n\n${doc.slice(to)}`;
}

/** The page with its written parts as the declarations have them now. */
export function renderApiDoc(doc: string): string {
  const routes = restRoutes();
  return fill(fill(doc, 'rest-paths', restTable(routes)), 'example-answers', exampleAnswers(routes));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const before = fs.readFileSync(API_DOC_FILE, 'utf8');
  const after = renderApiDoc(before);
  if (after === before) console.log('docs/api.md is up to date.');
  else {
    fs.writeFileSync(API_DOC_FILE, after);
    console.log('docs/api.md written from the declarations.');
  }
}
