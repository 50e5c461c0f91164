import { describe, expect, it } from 'vitest';
import { stem } from '../../../src-shared/codemode/stem.ts';

describe('stem', () => {
  it('folds a verb and its inflections and noun into one stem', () => {
    const forms = ['create', 'creates', 'created', 'creating', 'creation'];
    expect(new Set(forms.map(stem)).size).toBe(1);
    expect(new Set(['delete', 'deleted', 'deletion', 'deletes'].map(stem)).size).toBe(1);
    expect(new Set(['merge', 'merged', 'merging'].map(stem)).size).toBe(1);
  });

  it('folds plurals, including -ies and -es after ch, sh, x', () => {
    expect(stem('repositories')).toBe(stem('repository'));
    expect(stem('branches')).toBe(stem('branch'));
    expect(stem('indexes')).toBe(stem('index'));
    expect(stem('files')).toBe(stem('file'));
    expect(stem('processes')).toBe(stem('process'));
  });

  it('undoes a doubled consonant before -ed and -ing, but keeps ll, ss, zz', () => {
    expect(stem('starred')).toBe('star');
    expect(stem('logging')).toBe('log');
    expect(stem('running')).toBe('run');
    expect(stem('passing')).toBe('pass');
  });

  it('keeps apart words that only look alike once stripped (stats/state, production/product, move/mov)', () => {
    expect(stem('stats')).not.toBe(stem('state'));
    expect(stem('production')).not.toBe(stem('product'));
    expect(stem('move')).toBe('move');
    // …while a final e still comes and goes with inflection.
    expect(new Set(['state', 'states', 'stated'].map(stem)).size).toBe(1);
    expect(new Set(['file', 'files', 'filed', 'filing'].map(stem)).size).toBe(1);
    expect(new Set(['write', 'writing', 'writes'].map(stem)).size).toBe(1);
    expect(new Set(['close', 'closed', 'closing'].map(stem)).size).toBe(1);
  });

  it('leaves words whose ending is part of the word', () => {
    expect(stem('status')).toBe('status');
    expect(stem('analysis')).toBe('analysis');
    expect(stem('string')).toBe('string');
    expect(stem('need')).toBe('need');
    expect(stem('user')).toBe('user');
    expect(stem('access')).toBe('access');
    // Nouns in -ing that are things, not their verb: a code quality finding is no search.
    expect(stem('finding')).not.toBe(stem('find'));
    expect(stem('settings')).not.toBe(stem('set'));
  });

  it('keeps short words and words with digits as they are', () => {
    expect(stem('prs')).toBe('prs');
    expect(stem('get')).toBe('get');
    expect(stem('v2s')).toBe('v2s');
    expect(stem('base64')).toBe('base64');
  });
});
