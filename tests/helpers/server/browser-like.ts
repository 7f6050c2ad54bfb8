/**
 * A browser-like HTTP client over Fastify's inject: keeps cookies, sends the CSRF header pair on writes like the
 * real client does, and answers parsed JSON.
 */
import type { FastifyInstance } from 'fastify';

export interface Answer {
  status: number;
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
}

let browsers = 0;

export class BrowserLike {
  private readonly cookies = new Map<string, string>();
  /**
   * Each browser comes from its own loopback address, as separate visitors would, so per-IP limits apply per browser;
   * or from the address given.
   */
  readonly ip: string;

  constructor(
    private readonly server: FastifyInstance,
    ip?: string,
  ) {
    browsers++;
    this.ip = ip ?? `127.0.${Math.floor(browsers / 250) % 250}.${(browsers % 250) + 2}`;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(setCookie: string | string[] | undefined): void {
    for (const line of ([] as string[]).concat(setCookie ?? [])) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      const expired = attributes.some(
        (a) => /max-age=0$/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim()),
      );
      if (!value || expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
  }

  /** Loads a page, as a browser would before any write, to get the CSRF cookie. */
  async open(url = '/'): Promise<void> {
    const res = await this.server.inject({ url, remoteAddress: this.ip, headers: { cookie: this.cookieHeader() } });
    this.remember(res.headers['set-cookie']);
  }

  async request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Answer> {
    if (method !== 'GET' && !this.cookies.has('csrf')) await this.open();
    const headers: Record<string, string> = { cookie: this.cookieHeader() };
    if (method !== 'GET') {
      headers['x-requested-with'] = 'XMLHttpRequest';
      headers['x-csrf-token'] = this.cookies.get('csrf')!;
    }
    const res = await this.server.inject({
      method,
      url,
      headers,
      remoteAddress: this.ip,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    this.remember(res.headers['set-cookie']);
    let body: unknown = res.body;
    try {
      body = res.json();
    } catch {
      // not JSON: keep the text
    }
    return { status: res.statusCode, body, headers: res.headers };
  }

  get(url: string) {
    return this.request('GET', url);
  }

  post(url: string, payload: unknown = {}) {
    return this.request('POST', url, payload);
  }
}
