/** Reads the .eml files the outbox writes when no SMTP server is set, as a person's mail client would show them. */
import fs from 'node:fs';
import path from 'node:path';

export interface ReadMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export function readOutbox(outboxDir: string): ReadMail[] {
  if (!fs.existsSync(outboxDir)) return [];
  return fs
    .readdirSync(outboxDir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => {
      const raw = fs.readFileSync(path.join(outboxDir, name), 'utf8');
      const split = raw.indexOf('\n\n');
      const head = raw.slice(0, split);
      const body = raw.slice(split + 2);
      const header = (field: string) => new RegExp(`^${field}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
      const text = /quoted-printable/i.test(header('Content-Transfer-Encoding')) ? decodeQuotedPrintable(body) : body;
      return { file: name, to: header('To'), subject: header('Subject'), text };
    });
}

export function linkIn(mail: ReadMail, pattern: RegExp): string {
  const match = pattern.exec(mail.text);
  if (!match) throw new Error(`No link matching ${pattern} in ${mail.file}`);
  return match[0];
}
