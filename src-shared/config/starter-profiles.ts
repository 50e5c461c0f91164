// The two kinds of profile Switchboard makes by itself, named once for the engine and the app.
// Pure: no Node, no DOM.

/**
 * The person's own tools: every server brought over from their apps (import) goes here, from
 * every app, and an app connected afterwards gets it. Apart from the demo, always.
 */
export const MY_TOOLS_PROFILE = 'my-tools';

/** The first run's "try it" profiles: no app gets them unless the person picks one; removable in one step. */
export const DEMO_PROFILES = ['demo', 'demo-code'] as const;

export function isDemoProfile(name: string): boolean {
  return (DEMO_PROFILES as readonly string[]).includes(name);
}
