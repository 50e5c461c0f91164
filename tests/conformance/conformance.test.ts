// The official MCP conformance suite (server scenarios) against a profile's Streamable HTTP
// endpoint, served by a real `switchboard serve` over tests/fixtures/servers/conformance.mjs.
// The suite is fetched with npx (it needs Node 22, fetched the same way); without the npm
// registry or a warm npx cache the test fails and says so, it never skips.
import { describe, expect, it } from 'vitest';
import {
  SUITE_PACKAGE,
  compareWithBaseline,
  formatComparison,
  readBaseline,
  readResults,
  runConformance,
} from '../../scripts/conformance.mjs';

/** Scenarios of --suite all in 0.1.16; fewer results means the run was cut short. */
const SCENARIOS_IN_SUITE = 32;

describe('conformance baseline', () => {
  it('names the suite version the runner fetches and gives every entry a reason', () => {
    const baseline = readBaseline();
    expect(baseline.suite).toBe(SUITE_PACKAGE);
    for (const [scenario, reason] of Object.entries(baseline.expectedFailures)) {
      expect(typeof reason === 'string' && reason.trim().length > 20, `baseline entry ${scenario} needs a reason`).toBe(true);
    }
  });

  it('flags a failure missing from the baseline and an entry that passes now', () => {
    const c = compareWithBaseline(
      [
        { scenario: 'ping', passed: false, problems: ['FAILURE ping: no answer'] },
        { scenario: 'tools-list', passed: true, problems: [] },
        { scenario: 'resources-subscribe', passed: false, problems: ['FAILURE resources-subscribe: refused'] },
      ],
      { suite: SUITE_PACKAGE, expectedFailures: { 'tools-list': 'was broken upstream', 'resources-subscribe': 'upstream has no subscriptions' } },
    );
    expect(c.unexpectedFailures.map((r) => r.scenario)).toEqual(['ping']);
    expect(c.staleEntries).toEqual(['tools-list']);
    expect(c.expected.map((r) => r.scenario)).toEqual(['resources-subscribe']);
  });

  it('counts a scenario the suite summarised but saved no checks for as failed', () => {
    const results = readResults('/nonexistent', '✓ ping: 1 passed, 0 failed\n✗ tools-list: 0 passed, 1 failed\n');
    expect(results.every((r) => !r.passed)).toBe(true);
    expect(results.map((r) => r.scenario)).toEqual(['ping', 'tools-list']);
  });
});

describe('the official conformance suite against a profile over HTTP', () => {
  it('fails no scenario outside the baseline, and every baseline entry still fails', async () => {
    const results = await runConformance();
    const comparison = compareWithBaseline(results, readBaseline());
    const report = formatComparison(comparison);
    expect(results.length, `the suite ran ${results.length} of ${SCENARIOS_IN_SUITE} scenarios\n${report}`).toBe(SCENARIOS_IN_SUITE);
    expect(comparison.unexpectedFailures.map((r) => r.scenario), report).toEqual([]);
    expect(comparison.staleEntries, report).toEqual([]);
  }, 300_000);
});
