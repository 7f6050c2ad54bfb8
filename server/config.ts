/**
 * Settings from the environment (README.md, Environment variables), parsed once at start-up. A missing or bad variable
 * stops the process with one clear line; every default is safe for a laptop and says so where it is only that.
 */
import net from 'node:net';
import path from 'node:path';
import * as v from 'valibot';
import { z } from 'zod';
import type { LiveTransport } from '#shared/api-types.ts';
import { isTimeZone } from '#shared/time-zone.ts';
import { PASSWORD_RULE_TEXT, passwordSchema } from '#shared/validation/account.ts';
import type { MediaStorageOptions } from './storage/index.ts';

/** The variables of object storage, which only MEDIA_STORAGE=s3 reads. */
const S3_VARIABLES = [
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'MEDIA_PUBLIC_URL',
] as const;

/** What MEDIA_STORAGE=s3 cannot do without. */
const S3_REQUIRED = {
  S3_BUCKET: "the bucket's name",
  S3_ACCESS_KEY_ID: 'the access key',
  S3_SECRET_ACCESS_KEY: 'the secret key',
} as const;

const envFields = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** A PostgreSQL database to run on instead of DATA_DIR's SQLite file (decision 037); unset: SQLite. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// URL (postgres://user:password@host:5432/gallery)')
    .optional(),
  SITE_URL: z.url().optional(),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('Gallery Tree <no-reply@localhost>'),
  HELP_EMAIL: z.email().default('help@gallery-tree.local'),
  CONTACT_EMAIL: z.email().default('hello@gallery-tree.local'),
  CONTACT_PHONE: z.string().default(''),
  /** The zone whose days and midnights reservation deadlines use, e.g. Europe/Paris (decision 027). */
  SITE_TIMEZONE: z.string().default('UTC').refine(isTimeZone, 'must be a time zone name such as UTC or Europe/Paris'),
  SEED: z.enum(['demo', 'none']).default('demo'),
  ADMIN_EMAIL: z.email().optional(),
  /** The same rule as every password the site accepts (shared/validation/account.ts). */
  ADMIN_PASSWORD: z
    .string()
    .refine((password) => v.is(passwordSchema, password), `must have ${PASSWORD_RULE_TEXT}`)
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Which proxies in front are believed about the visitor's address (README, Behind nginx or a CDN; decision 038). */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((text, ctx) => {
      const trust = parseTrustProxy(text);
      if (typeof trust === 'string') {
        ctx.addIssue({ code: 'custom', input: text, message: trust });
        return z.NEVER;
      }
      return trust;
    }),
  /** Uploads are refused while the data folder has less free space than this (decision 026). */
  MIN_FREE_SPACE_MB: z.coerce.number().int().min(0).max(1_000_000).default(200),
  /** How long a process's claim on a background job or an e-mail holds without renewal (decision 025). */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  /** Long-polls of the live tree one process holds at once; past it, 503 with Retry-After (decision 033). */
  LONG_POLLS_MAX: z.coerce.number().int().min(1).max(100_000).default(5_000),
  /** How tree pages follow the live tree: an event stream each, or long-polls a shared cache can collapse (033). */
  LIVE_TRANSPORT: z.enum(['events', 'poll']).default('events'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  /** An optional external US ZIP service, e.g. https://zip.example/{zip}; unset: only the offline data is used. */
  ZIP_LOOKUP_URL: z
    .url({ protocol: /^https?$/ })
    .refine((url) => url.includes('{zip}'), 'must contain {zip}')
    .optional(),
  /** Where pictures are kept (decision 044): `folder`, DATA_DIR/media; `s3`, a bucket the S3_ variables name. */
  MEDIA_STORAGE: z.enum(['folder', 's3']).default('folder'),
  /** The store's address; unset for AWS itself, whose address follows from the region. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name: 3 to 63 lower-case letters, digits, dots, dashes',
    )
    .optional(),
  /** The bucket's region: AWS's own for AWS; servers of one region (MinIO, Garage) take us-east-1, the default. */
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, 'must be a region name such as us-east-1')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Bucket in the path, not the host name: by default yes with S3_ENDPOINT (MinIO, Garage, Ceph), no for AWS. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  /** Where browsers fetch pictures straight from the store or a CDN; unset, the server serves them at /media/. */
  MEDIA_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
});

const envSchema = envFields.superRefine((e, ctx) => {
  if (e.MEDIA_STORAGE === 's3') {
    for (const [name, what] of Object.entries(S3_REQUIRED)) {
      if (e[name as keyof typeof S3_REQUIRED] === undefined)
        ctx.addIssue({ code: 'custom', path: [name], message: `missing: MEDIA_STORAGE=s3 needs ${what}` });
    }
    return;
  }
  // Pictures would land on this disk while the operator believes them in a bucket: said at once instead.
  for (const name of S3_VARIABLES) {
    if (e[name] === undefined) continue;
    ctx.addIssue({
      code: 'custom',
      path: [name],
      message: 'is set, but MEDIA_STORAGE is folder: set MEDIA_STORAGE=s3 to keep pictures in the bucket, or unset it',
    });
  }
});

/** Where pictures are kept, from the parsed variables. */
function mediaStorageOf(e: z.infer<typeof envSchema>, dataDir: string): MediaStorageOptions {
  if (e.MEDIA_STORAGE === 'folder') return { kind: 'folder', dir: path.join(dataDir, 'media') };
  return {
    kind: 's3',
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION ?? 'us-east-1',
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'true' : e.S3_ENDPOINT !== undefined,
    publicBaseUrl: e.MEDIA_PUBLIC_URL,
  };
}

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  /** The PostgreSQL database the app runs on (DATABASE_URL), or null for the SQLite file `databaseFile`. */
  databaseUrl: string | null;
  /** Where pictures are kept (decision 044): the media folder, or an S3-compatible bucket with its keys. */
  media: MediaStorageOptions;
  outboxDir: string;
  siteUrl: string;
  /** Cookies get the Secure flag when the site is served over HTTPS. */
  secureCookies: boolean;
  smtpUrl: string | null;
  mailFrom: string;
  helpEmail: string;
  contactEmail: string;
  contactPhone: string;
  /** The site's time zone (IANA name): the days and midnights of reservation deadlines. */
  siteTimezone: string;
  seed: 'demo' | 'none';
  adminEmail: string | null;
  adminPassword: string | null;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /**
   * Whose word the visitor's address is taken on (decision 038): `false`, no proxy (the connection's address); a
   * number, that many proxies in front, each of which added the address it saw to X-Forwarded-For (`true` is 1);
   * a list, the proxies at these addresses or CIDR ranges. What a visitor wrote to the left of them is ignored.
   */
  trustProxy: TrustProxy;
  /** How long a client may take to send a request (decision 038); an event stream or a long-poll has no body. */
  httpTimeouts: HttpTimeouts;
  /** Where the built client lives (dist/client); tests may point it elsewhere. */
  clientDir: string;
  /** Run the in-process job runner (mail outbox, reservation timers). */
  runJobs: boolean;
  /** Uploads are refused while the data folder has less free space than this (bytes). */
  minFreeBytes: number;
  /** How long a claim on a job run or an e-mail holds without renewal (ms): how soon another process takes over. */
  jobLeaseMs: number;
  /** How many held long-polls of the live tree (/changes?wait=) this process takes at once. */
  longPollsMax: number;
  /** How tree pages follow the live tree: `events` (a stream each) or `poll` (long-polls, for a shared cache). */
  liveTransport: LiveTransport;
  /** The external ZIP lookup's URL template ({zip} is replaced), or null for the offline data alone. */
  zipLookupUrl: string | null;
}

export class ConfigError extends Error {}

export type TrustProxy = boolean | number | readonly string[];

export interface HttpTimeouts {
  /** From the connection's first byte (or the previous request's end) until the last header line: a slow-loris. */
  headersMs: number;
  /** From the headers until the last byte of a body that is not an upload (JSON, a form): at most 1 MiB. */
  bodyMs: number;
  /** The whole request, headers and body, an upload included (about 50 MB on a slow line). */
  requestMs: number;
  /** Nothing sent either way on a connection with a request in flight (the stream's comment comes every 20 s). */
  idleMs: number;
}

const HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: 30_000,
  bodyMs: 30_000,
  requestMs: 10 * 60_000,
  idleMs: 90_000,
};

/** Names of address ranges the proxy check knows (private networks of each kind, and this machine). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY's value, or what is wrong with it: `false`; `true` (one proxy, which added the address it saw); a
 * whole number of proxy hops; or a comma-separated list of proxy addresses, CIDR ranges (10.0.0.0/8, fd00::/8)
 * and the names loopback, linklocal, uniquelocal.
 */
function parseTrustProxy(text: string): TrustProxy | string {
  const value = text.trim().toLowerCase();
  if (value === 'false' || value === '') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) return `${value} proxies in a row is not a real set-up: give 1 to 10, or the proxies' addresses`;
    return hops === 0 ? false : hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong === undefined) return entries;
  return (
    `"${wrong}" is not an address or a CIDR range: TRUST_PROXY is false, true (one proxy in front), a number of ` +
    "proxies, or a comma-separated list of the proxies' addresses or ranges (127.0.0.1,10.0.0.0/8)"
  );
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, extra] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid environment variable ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(root, e.DATA_DIR);
  const siteUrl = (e.SITE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseFile: path.join(dataDir, 'gallery.db'),
    databaseUrl: e.DATABASE_URL ?? null,
    media: mediaStorageOf(e, dataDir),
    outboxDir: path.join(dataDir, 'outbox'),
    siteUrl,
    secureCookies: siteUrl.startsWith('https://'),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    helpEmail: e.HELP_EMAIL,
    contactEmail: e.CONTACT_EMAIL,
    contactPhone: e.CONTACT_PHONE,
    siteTimezone: e.SITE_TIMEZONE,
    seed: e.SEED,
    adminEmail: e.ADMIN_EMAIL ?? null,
    adminPassword: e.ADMIN_PASSWORD ?? null,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    httpTimeouts: HTTP_TIMEOUTS,
    clientDir: path.resolve(root, 'dist/client'),
    runJobs: true,
    jobLeaseMs: e.JOB_LEASE_SECONDS * 1000,
    longPollsMax: e.LONG_POLLS_MAX,
    liveTransport: e.LIVE_TRANSPORT,
    minFreeBytes: e.MIN_FREE_SPACE_MB * 1024 * 1024,
    zipLookupUrl: e.ZIP_LOOKUP_URL ?? null,
  };
}

/** Both places pictures may be kept, as `npm run media -- copy` moves them from one to the other. */
export interface MediaPlaces {
  dataDir: string;
  folder: Extract<MediaStorageOptions, { kind: 'folder' }>;
  s3: Extract<MediaStorageOptions, { kind: 's3' }>;
}

/**
 * The media folder and the bucket the S3_ variables name, whatever MEDIA_STORAGE says: a copy runs before the switch
 * as well as after it. The variables are checked as for the start-up, and those the bucket cannot do without must
 * be set; a message names a variable, never its value.
 */
export function loadMediaPlaces(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): MediaPlaces {
  const parsed = envFields.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid environment variable ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  for (const [name, what] of Object.entries(S3_REQUIRED)) {
    if (e[name as keyof typeof S3_REQUIRED] === undefined)
      throw new ConfigError(`Missing environment variable ${name}: copying to or from the bucket needs ${what}`);
  }
  const dataDir = path.resolve(root, e.DATA_DIR);
  return {
    dataDir,
    folder: { kind: 'folder', dir: path.join(dataDir, 'media') },
    s3: mediaStorageOf({ ...e, MEDIA_STORAGE: 's3' }, dataDir) as MediaPlaces['s3'],
  };
}

/** A config for tests and scripts: everything under one data folder, quiet logs, no jobs unless asked. */
export function testConfig(dataDir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  const base = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test' });
  return { ...base, runJobs: false, ...overrides };
}
