// The playground's code and profile, kept across page changes and filled by "Open in playground".
export const SAMPLE_CODE = `async () => {
  // Each server of the profile is a global; each of its tools a method.
  return { hello: 'world' };
}`;

export class PlaygroundDraft {
  profile = $state('');
  code = $state(SAMPLE_CODE);

  load(profile: string, code: string): void {
    this.profile = profile;
    this.code = code;
  }
}
