import { describe, expect, it } from 'vitest';
import { destinationWords, importFailure, renameWords } from '../../../src-renderer/lib/import-words.ts';

describe('import words', () => {
  it('say where the servers go, with what is there already', () => {
    expect(destinationWords({ replaceProfile: 'my-tools', profileServers: [] })).toMatch(/^They go into a profile of your own, “my-tools”, kept apart from the demo/);
    expect(destinationWords({ replaceProfile: 'my-tools', profileServers: ['todo', 'files'] })).toMatch(/^They join your profile “my-tools”, which has “todo”, “files” already/);
  });

  it('say why a server gets another name', () => {
    const server = { command: 'node' };
    expect(renameWords({ action: 'add', clientName: 'memory', name: 'memory-cursor', taken: 'memory', server }, 'Cursor')).toBe(
      'Named “memory-cursor” here: Switchboard already has a different server called “memory”, and both are kept.',
    );
    expect(renameWords({ action: 'add', clientName: 'My notes', name: 'My-notes', server }, 'Cursor')).toMatch(/^Called “My notes” in Cursor; named “My-notes” here/);
    expect(renameWords({ action: 'add', clientName: 'notes', name: 'notes', server }, 'Cursor')).toBeNull();
  });

  it('keep config paths out of the sentence, under Details', () => {
    const raw = 'That change would make config.json invalid (profiles.demo.servers.5: "memory-2" is listed twice); nothing was written.';
    const f = importFailure(raw);
    expect(f.sentence).not.toMatch(/profiles\./);
    expect(f.details).toBe(raw);
    expect(importFailure('Claude Desktop does not seem to be installed.')).toEqual({ sentence: 'Claude Desktop does not seem to be installed.', details: null });
  });
});
