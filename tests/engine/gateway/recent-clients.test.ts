// The 2026-07-28 HTTP clients `status` lists: per profile and name, newest first, bounded in
// number and age (times are given, not waited for).
import { describe, expect, it } from 'vitest';
import { MAX_RECENT_CLIENTS, RECENT_CLIENT_WINDOW_MS, RecentClients } from '../../../src-main/engine/gateway/recent-clients.ts';

describe('RecentClients', () => {
  it('keeps one entry per profile and client name, with first and last seen and a request count', () => {
    const r = new RecentClients();
    r.seen('web', 'inspector', '2.12', 1000);
    r.seen('other', 'inspector', '2.12', 1500);
    r.seen('web', 'inspector', undefined, 2000);
    expect(r.list(3000)).toEqual([
      { profile: 'web', name: 'inspector', version: '2.12', firstSeen: 1000, lastSeen: 2000, requests: 2 },
      { profile: 'other', name: 'inspector', version: '2.12', firstSeen: 1500, lastSeen: 1500, requests: 1 },
    ]);
  });

  it(`drops clients not seen for ${RECENT_CLIENT_WINDOW_MS / 60_000} minutes`, () => {
    const r = new RecentClients();
    r.seen('web', 'old', undefined, 0);
    r.seen('web', 'new', undefined, RECENT_CLIENT_WINDOW_MS);
    expect(r.list(RECENT_CLIENT_WINDOW_MS + 1).map((c) => c.name)).toEqual(['new']);
  });

  it(`keeps at most ${MAX_RECENT_CLIENTS}, the least recently seen going first`, () => {
    const r = new RecentClients();
    for (let i = 0; i <= MAX_RECENT_CLIENTS; i++) r.seen('web', `c${i}`, undefined, i);
    r.seen('web', 'c1', undefined, 100); // seen again: kept
    r.seen('web', 'late', undefined, 101);
    const names = r.list(200).map((c) => c.name);
    expect(names).toHaveLength(MAX_RECENT_CLIENTS);
    expect(names.slice(0, 2)).toEqual(['late', 'c1']);
    expect(names).not.toContain('c0');
    expect(names).not.toContain('c2');
  });
});
