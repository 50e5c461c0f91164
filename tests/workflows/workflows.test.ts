// The GitHub workflows cannot run on this machine, so they are checked here: each file against
// GitHub's schema with action-validator, and the release pipeline against electron-builder.yml
// (every OS and CPU it packages is built, given its shims and smoke-tested; the shim folders it
// fills are those extraResources reads; it publishes where `publish` says).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.join(import.meta.dirname, '..', '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
const VALIDATOR = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'action-validator.cmd' : 'action-validator');
const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'));
const read = (f: string) => readFileSync(path.join(WORKFLOWS, f), 'utf8');
const builder = parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const release = parse(read('release.yml')) as Record<string, any>;
const ci = parse(read('ci.yml')) as Record<string, any>;

type Step = { name?: string; uses?: string; run?: string; if?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Job = { steps?: Step[]; strategy?: { matrix?: { include?: Record<string, string>[] } }; needs?: string | string[]; 'runs-on'?: string; if?: string; uses?: string; env?: Record<string, string> };
const jobs = (wf: Record<string, any>) => Object.entries(wf.jobs as Record<string, Job>);
const matrix = (job: Job) => job.strategy?.matrix?.include ?? [];
const steps = (job: Job) => job.steps ?? [];

/** action-validator's verdict on a file: its exit code and what it printed. */
function validate(file: string): { code: number; output: string } {
  try {
    return { code: 0, output: execFileSync(VALIDATOR, [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status, output: `${err.stdout}${err.stderr}` };
  }
}

/** What each runner label runs on, by CPU (GitHub's hosted runners). */
const RUNNER_ARCH: Record<string, string> = {
  'ubuntu-latest': 'x64',
  'macos-15': 'arm64',
  'macos-latest': 'arm64',
  'macos-15-intel': 'x64',
  'windows-latest': 'x64',
  'windows-11-arm': 'arm64',
};

/** Every OS and CPU electron-builder.yml packages, as `<os>-<arch>` (no arch = x64). */
function packagedPlatforms(): string[] {
  const out = new Set<string>();
  for (const os_ of ['mac', 'win', 'linux']) {
    for (const t of builder[os_].target as (string | { target: string; arch?: string[] })[]) {
      for (const arch of typeof t === 'string' || !t.arch ? ['x64'] : t.arch) out.add(`${os_}-${arch}`);
    }
  }
  return [...out].sort();
}

describe('workflow files', () => {
  it('has the CI and release workflows', () => {
    expect(files).toEqual(expect.arrayContaining(['ci.yml', 'release.yml']));
  });

  it.each(files)('%s passes action-validator (GitHub\'s workflow schema)', (file) => {
    const r = validate(path.join(WORKFLOWS, file));
    expect(r.output, `action-validator on ${file}:\n${r.output}`).toBe('');
    expect(r.code).toBe(0);
  });

  it('action-validator fails a broken workflow, so the check above can fail', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-workflow-'));
    try {
      const broken = path.join(dir, 'release.yml');
      writeFileSync(broken, read('release.yml').replace('runs-on: ${{ matrix.runner }}', 'runs_on: ${{ matrix.runner }}'));
      const r = validate(broken);
      expect(r.code).not.toBe(0);
      expect(r.output).toContain('runs_on');
      writeFileSync(broken, read('ci.yml').replace('- name: .ci/run', '- name: .ci/run: now'));
      expect(validate(broken).output).toContain('Parse Error');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pins every action by its major version', () => {
    for (const f of files) {
      for (const [name, job] of jobs(parse(read(f)))) {
        for (const s of steps(job)) if (s.uses) expect(s.uses, `${f} ${name}`).toMatch(/^[\w.-]+\/[\w.-]+@v\d+$/);
      }
    }
  });

  it('uses Node 20 everywhere, the Node package.json asks for', () => {
    expect(pkg.engines.node).toMatch(/^>=20/);
    let seen = 0;
    for (const f of files) {
      for (const [, job] of jobs(parse(read(f)))) {
        for (const s of steps(job)) {
          if (s.uses?.startsWith('actions/setup-node@')) {
            expect(s.with?.['node-version']).toBe(20);
            seen++;
          }
        }
      }
    }
    expect(seen).toBeGreaterThan(3);
    expect(ci.jobs.linux.container).toMatch(/^node:20-/);
  });
});

describe('CI', () => {
  it('runs npm test on Linux (through .ci/run, on Debian), macOS and Windows, and can be called by the release', () => {
    expect(ci.on).toHaveProperty('workflow_call');
    expect(steps(ci.jobs.linux).map((s: Step) => s.run)).toContain('.ci/run');
    expect(matrix(ci.jobs.desktop).map((m) => RUNNER_ARCH[m.runner!] && m.runner!.split('-')[0])).toEqual(['macos', 'windows']);
    expect(steps(ci.jobs.desktop).map((s: Step) => s.run)).toContain('npm test');
    // The UI tests find the runner's Chrome by CHROMIUM_PATH (tests/ui/harness.ts).
    expect(readFileSync(path.join(ROOT, 'tests/ui/harness.ts'), 'utf8')).toContain('process.env.CHROMIUM_PATH');
    expect(ci.jobs.desktop.env.CHROMIUM_PATH).toBe('${{ matrix.chromium }}');
  });
});

describe('the release pipeline against electron-builder.yml', () => {
  const shims = release.jobs.shims as Job;
  const pack = release.jobs.package as Job;
  const smoke = release.jobs.smoke as Job;

  it('runs on version tags, after CI', () => {
    expect(release.on.push.tags).toEqual(['v*']);
    expect(release.jobs.ci.uses).toBe('./.github/workflows/ci.yml');
    expect(pack.needs).toEqual(expect.arrayContaining(['ci', 'shims', 'draft']));
  });

  it('builds the shims of every OS and CPU electron-builder packages, each on a runner of that CPU', () => {
    expect(packagedPlatforms()).toEqual(['linux-x64', 'mac-arm64', 'mac-x64', 'win-arm64', 'win-x64']);
    const built = matrix(shims).map((m) => `${m.os}-${m.arch}`).sort();
    expect(built).toEqual(packagedPlatforms());
    for (const m of [...matrix(shims), ...matrix(pack), ...matrix(smoke)]) expect(RUNNER_ARCH[m.runner!], `${m.runner} for ${m.os}-${m.arch}`).toBe(m.arch);
  });

  it('puts the shims where extraResources reads them, by the names electron-builder.yml ships', () => {
    const from = (builder.extraResources as { from: string; filter: string[] }[])[0]!;
    expect(from.from).toBe('release/shim/${os}-${arch}/');
    const text = read('release.yml');
    // The shims job writes release/shim/<os>-<arch>/ (build scripts' default) and uploads it by that name…
    const upload = steps(shims).find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.with).toMatchObject({ name: 'shim-${{ matrix.os }}-${{ matrix.arch }}', path: 'release/shim/${{ matrix.os }}-${{ matrix.arch }}/' });
    expect(text).toContain('test -s "release/shim/${{ matrix.os }}-${{ matrix.arch }}/switchboard$ext"');
    expect(text).toContain('test -s "release/shim/${{ matrix.os }}-${{ matrix.arch }}/switchboard-node$ext"');
    for (const name of ['switchboard', 'switchboard.exe', 'switchboard-node', 'switchboard-node.exe']) expect(from.filter).toContain(name);
    expect(steps(shims).map((s) => s.run)).toEqual(expect.arrayContaining(['npm run build:native-shim -- --package', 'node scripts/build-shim-sea.mjs --name switchboard-node']));
    // …and the package job puts every artifact of its OS back at release/shim/<os>-<arch>/.
    const download = steps(pack).find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    expect(download.with).toMatchObject({ pattern: 'shim-${{ matrix.os }}-*', path: 'release/shim-artifacts' });
    expect(text).toContain('dest="release/shim/${d##*/shim-}"');
  });

  it('packages each OS once with all of its targets and CPUs, so each OS has one update feed file', () => {
    expect(matrix(pack).map((m) => m.os).sort()).toEqual(['linux', 'mac', 'win']);
    const commands = steps(pack).map((s) => s.run ?? '').filter((r) => r.startsWith('npx electron-builder'));
    expect(commands).toHaveLength(2);
    // No target or arch on the command line: electron-builder.yml's lists are built whole.
    for (const c of commands) expect(c).toMatch(/^npx electron-builder --\$\{\{ matrix\.os \}\} --publish (always|never)( |$)/);
  });

  it('publishes to the GitHub release electron-builder.yml names, as a draft made public only after the smoke tests', () => {
    expect(builder.publish).toEqual({ provider: 'github', releaseType: 'draft' });
    expect(builder.generateUpdatesFilesForAllChannels).toBe(true);
    const up = steps(pack).find((s) => s.run?.includes('--publish always'))!;
    expect(up.env?.GH_TOKEN).toBe('${{ secrets.GITHUB_TOKEN }}');
    expect(release.permissions.contents).toBe('write');
    expect(release.jobs.publish.needs).toEqual(expect.arrayContaining(['package', 'smoke']));
    expect(steps(release.jobs.publish)[0]!.run).toContain('--draft=false');
    // The generic fallback overrides the provider for a mirror, and then nothing is made public here.
    const mirror = steps(pack).find((s) => s.run?.includes('--publish never'))!;
    expect(mirror.run).toContain('-c.publish.provider=generic -c.publish.url="$UPDATE_URL"');
    expect(mirror.if).toBe("vars.UPDATE_URL != ''");
    expect(up.if).toBe("vars.UPDATE_URL == ''");
    expect(release.jobs.publish.if).toBe("vars.UPDATE_URL == ''");
  });

  it('smoke-tests every packaged OS and CPU on its own runner, Linux under Xvfb', () => {
    const tested = [...matrix(pack), ...matrix(smoke)].map((m) => `${m.os}-${m.arch}`).sort();
    expect(tested).toEqual(packagedPlatforms());
    const runs = steps(pack).map((s) => s.run ?? '');
    expect(runs).toContain('xvfb-run -a node scripts/smoke-packaged.mjs --arch ${{ matrix.arch }}');
    expect(runs).toContain('node scripts/smoke-packaged.mjs --arch ${{ matrix.arch }}');
    expect(steps(smoke).map((s) => s.run)).toContain('node scripts/smoke-packaged.mjs --arch ${{ matrix.arch }}');
    // The other CPU's app travels as a tar of the folder smoke-packaged.mjs looks in.
    const text = read('release.yml');
    expect(text).toContain('tar -czf release/app-mac-x64.tgz -C release mac');
    expect(text).toContain('tar -czf release/app-win-arm64.tgz -C release win-arm64-unpacked');
    expect(steps(smoke).map((s) => s.run)).toContain('tar -xzf release/app-${{ matrix.os }}-${{ matrix.arch }}.tgz -C release');
  });

  it('signs and notarizes only where the secrets are set, and says when a build is unsigned', () => {
    expect(pack.env).toEqual({
      HAS_MAC_SIGNING: "${{ secrets.CSC_LINK != '' && secrets.CSC_KEY_PASSWORD != '' }}",
      HAS_NOTARIZATION: "${{ secrets.APPLE_ID != '' && secrets.APPLE_APP_SPECIFIC_PASSWORD != '' && secrets.APPLE_TEAM_ID != '' }}",
      HAS_WIN_SIGNING: "${{ secrets.WIN_CSC_LINK != '' && secrets.WIN_CSC_KEY_PASSWORD != '' }}",
    });
    const byEnv = (name: string) => steps(pack).find((s) => s.run?.includes(`${name}<<`) || s.run?.includes(`${name}=`))!;
    expect(byEnv('CSC_LINK').if).toBe("runner.os == 'macOS' && env.HAS_MAC_SIGNING == 'true'");
    expect(byEnv('APPLE_ID').if).toContain("env.HAS_NOTARIZATION == 'true'");
    expect(byEnv('WIN_CSC_LINK').if).toBe("runner.os == 'Windows' && env.HAS_WIN_SIGNING == 'true'");
    expect(byEnv('CSC_IDENTITY_AUTO_DISCOVERY').if).toContain("env.HAS_MAC_SIGNING != 'true'");
    // Secrets reach scripts through env, never pasted into the script text.
    for (const s of steps(pack)) expect(s.run ?? '').not.toMatch(/\$\{\{\s*secrets\./);
  });

  it('packages the Electron version package.json pins', () => {
    expect(builder.electronVersion ?? pkg.devDependencies.electron).toBe(pkg.devDependencies.electron);
    expect(pkg.devDependencies.electron).toMatch(/^\d+\.\d+\.\d+$/);
  });
  it('unpacks beside app.asar what the detached engine reads with the shipped Node (docs/updates.md)', () => {
    // The shipped Node cannot read inside app.asar: without these the app falls back to an engine
    // that ends with it, and a desktop update loses the calls in flight.
    const unpacked = builder.asarUnpack as string[];
    for (const glob of ['package.json', 'out/electron/**', 'out/renderer/**', 'out/bundle/**']) expect(unpacked).toContain(glob);
    expect((builder.files as string[]).filter((f) => !f.startsWith('!'))).toEqual(expect.arrayContaining(['package.json', 'out/**']));
  });
});
