// What the window shows outside the page while calls wait for approval: the tab (or window)
// title and the favicon with a count, so a person on another tab or app sees it waits.

export const APP_TITLE = 'Switchboard';

/** "(2) Approval needed — Switchboard" while calls wait, else the plain title. */
export function attentionTitle(waiting: number, title = APP_TITLE): string {
  return waiting > 0 ? `(${waiting}) Approval needed — ${title}` : title;
}

const ICON_BASE =
  '<rect x="4" y="6" width="56" height="52" rx="12" fill="#2f5bd3"/>' +
  '<circle cx="20" cy="24" r="5" fill="#fff"/><circle cx="44" cy="24" r="5" fill="#fff"/><circle cx="32" cy="42" r="5" fill="#fff"/>' +
  '<path d="M20 24 32 42 44 24" stroke="#fff" stroke-width="3" fill="none"/>';

/** The favicon as an SVG data URL; with calls waiting, a red badge with their count (9+ past 9). */
export function faviconHref(waiting: number): string {
  const badge =
    waiting > 0
      ? `<circle cx="46" cy="18" r="17" fill="#d92d20" stroke="#fff" stroke-width="3"/>` +
        `<text x="46" y="25" font-family="Arial,sans-serif" font-size="${waiting > 9 ? 16 : 21}" font-weight="700" fill="#fff" text-anchor="middle">${waiting > 9 ? '9+' : waiting}</text>`
      : '';
  return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${ICON_BASE}${badge}</svg>`)}`;
}

/** Whole seconds from `now` (ms) until `expiresAt` (ISO), never below 0. */
export function secondsLeft(expiresAt: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));
}

/** "42 s", "1 min 05 s". */
export function timeLeftText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m} min ${String(s).padStart(2, '0')} s`;
}
