import { describe, expect, it } from 'vitest';
import { looksLikeToken, redactDeep, redactSecrets, tokenLikeValues } from '../../../src-main/engine/records/redact.ts';

describe('redactSecrets', () => {
  it('replaces every occurrence of each secret, the longest first', () => {
    expect(redactSecrets('a=abcd1234 b=abcd1234xyz', ['abcd1234', 'abcd1234xyz'])).toBe('a=[redacted] b=[redacted]');
  });

  it('also finds a secret JSON-escaped or URL-encoded', () => {
    const secret = 'pa"ss/wo rd';
    expect(redactSecrets(JSON.stringify({ k: secret }), [secret])).toBe('{"k":"[redacted]"}');
    expect(redactSecrets(`https://x.test/?p=${encodeURIComponent(secret)}`, [secret])).toBe('https://x.test/?p=[redacted]');
  });

  it('treats secret characters literally, not as a pattern', () => {
    expect(redactSecrets('cost: $1.00 (a+b)*', ['$1.00 (a+b)*'])).toBe('cost: [redacted]');
    expect(redactSecrets('xxxxxxxx', ['x.*x'])).toBe('xxxxxxxx');
  });

  it('ignores empty and very short secret values', () => {
    expect(redactSecrets('on and on', ['', 'on', '   '])).toBe('on and on');
  });

  it('redacts well-known token shapes it was not told about, and keeps ordinary text', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    const text = `gh ghp_0123456789abcdefghijABCDEFGHIJ sk sk-ant-api03-abcdefghijklmnopqrstuv aws AKIAIOSFODNN7EXAMPLE jwt ${jwt} header Authorization: Bearer abcdefghijklmnop123`;
    expect(redactSecrets(text, [])).toBe('gh [redacted] sk [redacted] aws [redacted] jwt [redacted] header Authorization: Bearer [redacted]');
    const plain = 'task-list of 20 skills, bearer bonds, github_pat is a name';
    expect(redactSecrets(plain, [])).toBe(plain);
  });

  it('redacts a token that is a whole value, with no space around it (a record field, a key)', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    for (const token of ['ghp_0123456789abcdefghijABCDEFGHIJ', 'github_pat_0123456789abcdefghij_AB', 'sk-ant-api03-abcdefghijklmnopqrstuv', 'xoxb-0123456789-abc', 'AKIAIOSFODNN7EXAMPLE', 'ASIAIOSFODNN7EXAMPLE', jwt]) {
      expect(redactSecrets(token, []), token).toBe('[redacted]');
    }
    expect(redactSecrets('postgres://admin:pw@db', [])).toBe('postgres://admin:[redacted]@db');
    expect(redactSecrets('/v1?api_key=abcd', [])).toBe('/v1?api_key=[redacted]');
    expect(redactSecrets('Bearer\u00a0abcdefghijklmnop123', [])).toBe('Bearer\u00a0[redacted]');
    for (const plain of ['01JEXAMPLE0000AB', '2026-12-06T04:44:35.310Z', 'github.search_code', 'cancelled']) expect(redactSecrets(plain, [])).toBe(plain);
  });
});

describe('redactDeep', () => {
  it('redacts strings at any depth, keys included, without changing the input', () => {
    const input = { a: ['x topsecret', { topsecret: 1, n: 2, ok: true, nil: null }], b: 'fine' };
    const copy = structuredClone(input);
    expect(redactDeep(input, ['topsecret'])).toEqual({ a: ['x [redacted]', { '[redacted]': 1, n: 2, ok: true, nil: null }], b: 'fine' });
    expect(input).toEqual(copy);
  });

  it('survives cycles', () => {
    const a: Record<string, unknown> = { s: 'topsecret' };
    a.self = a;
    const out = redactDeep(a, ['topsecret']) as Record<string, unknown>;
    expect(out.s).toBe('[redacted]');
    expect(out.self).toBe(out);
  });
});

describe('tokenLikeValues', () => {
  it('takes values named like secrets or shaped like tokens, and the token after an auth scheme', () => {
    const found = tokenLikeValues({
      Authorization: 'Bearer abc123def456',
      GITHUB_TOKEN: 'tok1',
      RANDOM: 'Zx81kq0Pw2mM7n4bVt',
      LOG_LEVEL: 'debug',
      HOME_DIR: '/home/user/projects2025abc',
      URL: 'https://example.com/a1b2c3d4e5f6',
      PORT: '8080',
    });
    expect(found.sort()).toEqual(['Bearer abc123def456', 'Zx81kq0Pw2mM7n4bVt', 'abc123def456', 'tok1'].sort());
  });

  it('does not call short or plain values tokens', () => {
    expect(looksLikeToken('MODE', 'production')).toBe(false);
    expect(looksLikeToken('API_KEY', 'abc')).toBe(false);
  });
});

// Issue 11, item 14: secrets inside plain config values.
describe('secrets embedded in plain values', () => {
  it('takes the password of a URL in any env or header value, and secret-named query parameters', () => {
    const found = tokenLikeValues({
      DB_URL: 'postgres://admin:s3cr%40t@db.internal:5432/app',
      CACHE: 'redis://:hunter2pw@cache:6379',
      WEBHOOK: 'https://hooks.example.com/in?channel=x&api_key=AbC123xyz&design=blue',
      PLAIN: 'https://example.com/docs',
    });
    expect(found).toEqual(expect.arrayContaining(['s3cr%40t', 's3cr@t', 'hunter2pw', 'AbC123xyz']));
    expect(found).not.toContain('blue');
    expect(found.some((v) => v.includes('example.com/docs'))).toBe(false);
  });

  it('calls the values of keys named …KEY, …PASS or AUTHORIZATION secrets', () => {
    for (const k of ['STRIPE_KEY', 'ACCESS_KEY_ID', 'X-Api-Key', 'SMTP_PASS', 'Authorization', 'SENTRY_DSN', 'OPENAI_APIKEY', 'private-key'])
      expect(looksLikeToken(k, 'plainvalue'), k).toBe(true);
    for (const k of ['KEYBOARD_LAYOUT', 'MODE', 'AUTHOR_NAME_X'.replace('AUTH', 'WRIT')]) expect(looksLikeToken(k, 'plainvalue'), k).toBe(false);
  });

  it('redacts a URL password and secret query values by shape, even ones it was never told about and shorter than 4', () => {
    const text = 'connect failed: postgres://admin:pw@db:5432/app; GET https://api.test/v1?key=abcd&page=2&access_token=zz9&design=blue';
    expect(redactSecrets(text, [])).toBe('connect failed: postgres://admin:[redacted]@db:5432/app; GET https://api.test/v1?key=[redacted]&page=2&access_token=[redacted]&design=blue');
    // A URL with a user and no password, and ordinary e-mail-like text, stay as they are.
    expect(redactSecrets('ssh://git@github.com/x and mail bob@example.com at 10:30', [])).toBe('ssh://git@github.com/x and mail bob@example.com at 10:30');
  });
});
