/**
 * deploy/nginx.conf's access log format stays one JSON object a line whatever nginx puts in its variables: the
 * format is read from the file and every variable given the values nginx writes, among them the status 000 of a
 * request closed before it had one (a rolling restart's), which a bare number made invalid JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const conf = fs.readFileSync(path.join(import.meta.dirname, '../../deploy/nginx.conf'), 'utf8');

/** The `gallery` format: its quoted parts, joined as nginx joins them. */
function galleryFormat(): string {
  const statement = /log_format gallery escape=json\s+((?:'[^']*'\s*)+);/.exec(conf)?.[1];
  if (!statement) throw new Error('deploy/nginx.conf has no `log_format gallery escape=json`');
  return [...statement.matchAll(/'([^']*)'/g)].map((part) => part[1]).join('');
}

/** Values nginx writes for the format's variables, the awkward ones included. */
const VALUES: Record<string, string[]> = {
  status: ['200', '499', '000'],
  body_bytes_sent: ['0', '1234'],
  request_time: ['0.000', '12.345'],
  upstream_status: ['-', '200', '502, 200'],
  upstream_addr: ['-', '127.0.0.1:3001, 127.0.0.1:3002'],
  upstream_cache_status: ['', 'HIT'],
};

it('writes valid JSON for every status nginx logs, 000 included, and names the fields the tests read', () => {
  const format = galleryFormat();
  const variables = [...format.matchAll(/\$([a-z_0-9]+)/g)].map((match) => match[1]!);
  expect(variables).toContain('status');
  for (const status of VALUES.status!) {
    for (const upstream of VALUES.upstream_status!) {
      const line = format.replace(/\$([a-z_0-9]+)/g, (_, name: string) => {
        if (name === 'status') return status;
        if (name === 'upstream_status') return upstream;
        return VALUES[name]?.at(-1) ?? 'x';
      });
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(parsed).toMatchObject({ status, upstream_status: upstream });
    }
  }
});
