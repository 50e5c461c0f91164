import { describe, expect, it } from 'vitest';
import { stem } from '../../../src-shared/codemode/stem.ts';
import { broaderStems, synonymStems } from '../../../src-shared/codemode/synonyms.ts';
import { STEM_PROBES } from '../../../src-shared/codemode/synonyms.generated.ts';

describe('WordNet synonyms for search', () => {
  it('were built with the stemmer search uses now (else run scripts/build-synonyms.mjs again)', () => {
    expect(STEM_PROBES.length).toBeGreaterThan(200);
    const changed = STEM_PROBES.filter(([word, s]) => stem(word) !== s);
    expect(changed, 'stem.ts changed since the synonyms were built: node --import tsx scripts/build-synonyms.mjs').toEqual([]);
  });

  it('gives the synonyms of a word by its stem, and none for a word WordNet does not have', () => {
    expect(synonymStems(stem('bill'))).toContain(stem('invoice'));
    expect(synonymStems(stem('cost'))).toContain(stem('price'));
    expect(synonymStems(stem('kubectl'))).toEqual([]);
  });

  it('gives the broader terms of a word in its most used sense, apart from its synonyms', () => {
    expect(broaderStems(stem('subscription'))).toContain(stem('payment'));
    expect(broaderStems(stem('restaurant'))).toContain(stem('building'));
    expect(synonymStems(stem('subscription'))).not.toContain(stem('payment'));
    expect(broaderStems(stem('kubectl'))).toEqual([]);
  });
});
