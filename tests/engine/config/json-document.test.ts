// The engine's small JSON state files as typed lowdb documents (config/json-document.ts): read as
// every home file is (no links, no FIFOs, bounded), checked against their schema, and changed in
// one locked read-modify-write, so concurrent writers keep each other's changes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installedFile, readInstalled, recordInstalled } from '../../../src-main/engine/catalog/installed.ts';
import { DocumentError, jsonDocument, jsonDocumentSync, readDocument, readDocumentSync, updateDocument } from '../../../src-main/engine/config/json-document.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'sb-json-doc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const home = () => {
  const d = path.join(root, `h${n++}`);
  mkdirSync(d);
  return d;
};

const Counts = z.record(z.string(), z.number().int());
const empty = () => ({}) as Record<string, number>;

describe('a JSON state document', () => {
  it('keeps every change when several writers change it at once', async () => {
    const h = home();
    const recs = ['a', 'b', 'c', 'd', 'e', 'f'].map((s) => ({ registry: 'https://r', name: `io.x/${s}`, version: '1.0.0', serverName: s, installedAt: '2026-01-01T00:00:00Z' }));
    await Promise.all(recs.map((r) => recordInstalled(h, r)));
    expect(Object.keys(await readInstalled(h)).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(Object.keys(JSON.parse(readFileSync(installedFile(h), 'utf8'))).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('reads as its type, and names the file and the place when the content is not', async () => {
    const file = path.join(home(), 'counts.json');
    await updateDocument(jsonDocument(file, Counts, empty), empty, (d) => ({ ...d, runs: 3 }));
    expect(await readDocument(jsonDocument(file, Counts, empty), empty)).toEqual({ runs: 3 });
    writeFileSync(file, '{"runs": "three"}');
    await expect(readDocument(jsonDocument(file, Counts, empty), empty)).rejects.toThrow(`${file} is not as Switchboard wrote it (runs: `);
    writeFileSync(file, '{"runs": ');
    await expect(readDocument(jsonDocument(file, Counts, empty), empty)).rejects.toThrow(`${file} is not valid JSON`);
    // A document that cannot be read is not written over.
    await expect(updateDocument(jsonDocument(file, Counts, empty), empty, (d) => ({ ...d, more: 1 }))).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{"runs": ');
  });

  it('reads a missing file as its default', async () => {
    expect(await readDocument(jsonDocument(path.join(home(), 'none.json'), Counts, empty), empty)).toEqual({});
  });

  it('refuses a link and, without blocking the event loop, a FIFO planted under its name', async () => {
    const h = home();
    const target = path.join(h, 'elsewhere.json');
    writeFileSync(target, '{"x": 1}');
    const link = path.join(h, 'link.json');
    symlinkSync(target, link);
    await expect(readDocument(jsonDocument(link, Counts, empty), empty)).rejects.toThrow();
    if (process.platform === 'win32' || spawnSync('mkfifo', ['--help']).error) return;
    const fifo = installedFile(h);
    mkdirSync(path.dirname(fifo), { recursive: true });
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // An open that waited for a writer would hang here (nothing ever opens the FIFO's other end).
    await expect(readDocument(jsonDocument(fifo, Counts, empty), empty)).rejects.toThrow(`${fifo} is not a regular file; it was not read.`);
    // The install hints read it as none, and go on.
    expect(await readInstalled(h)).toEqual({});
  });
});

describe('a synchronous JSON state document (pins, skills, dropped.json)', () => {
  const doc = (file: string) => jsonDocumentSync(file, Counts, {}, { pretty: false });
  const failure = (file: string): DocumentError => {
    try {
      readDocumentSync(doc(file), {});
    } catch (err) {
      return err as DocumentError;
    }
    throw new Error(`${file} was read`);
  };

  it('writes and reads back its type, a missing file reading as its default', () => {
    const file = path.join(home(), 'counts.json');
    expect(readDocumentSync(doc(file), {})).toEqual({});
    const d = doc(file);
    d.data = { runs: 2 };
    d.write();
    expect(readFileSync(file, 'utf8')).toBe('{"runs":2}\n');
    expect(readDocumentSync(doc(file), {})).toEqual({ runs: 2 });
  });

  it('says whether the file could not be read or its content is wrong, so a store can keep a corrupt file aside', () => {
    const h = home();
    const bad = path.join(h, 'bad.json');
    writeFileSync(bad, '{"runs": ');
    expect(failure(bad)).toMatchObject({ kind: 'content', code: 'io-error' });
    const target = path.join(h, 'elsewhere.json');
    writeFileSync(target, '{"x": 1}');
    const link = path.join(h, 'link.json');
    symlinkSync(target, link);
    expect(failure(link)).toMatchObject({ kind: 'read' });
  });
});
