// `switchboard skills save RUN_ID NAME [--input SCHEMA] [--description TEXT] [--replace]`,
// `skills list [--profile P] [--json]` and `skills remove NAME` (docs/configuration.md). Through the running
// engine when there is one (its clients see the change at once), else straight in the home's
// skills file, which the next engine reads.
import type { SkillInfo } from '../../../src-shared/api.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { jsonDeeperThan } from '../../../src-shared/codemode/json-depth.ts';
import { ensureHome, homePaths } from '../../engine/platform/home.ts';
import { RunStore } from '../../engine/records/run-store.ts';
import { MAX_SCHEMA_DEPTH, SCHEMA_TOO_DEEP, SkillStore } from '../../engine/codemode/skills.ts';
import { SocketControlClient } from '../engine-client.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';

const USAGE = 'Usage: switchboard skills list [--profile P] [--json] · skills save RUN_ID NAME [--input JSON_SCHEMA] [--description TEXT] [--replace] · skills remove NAME';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseFlags('skills', args, {
    json: { type: 'boolean' },
    profile: { type: 'string' },
    input: { type: 'string' },
    description: { type: 'string' },
    replace: { type: 'boolean' },
  });
  const [sub, ...rest] = positionals;
  const paths = homePaths(ctx.home);
  const client = await SocketControlClient.connect(paths);
  try {
    if (sub === 'list' && rest.length === 0) {
      if (values.profile && !client) throw new SwitchboardError('engine-unavailable', 'skills list --profile needs a running engine (it checks the profile\'s live tools); run `switchboard serve`, or leave out --profile.');
      const skills: SkillInfo[] = client ? (await client.call('skills.list', values.profile ? { profile: values.profile } : {})).skills : SkillStore.open(paths.skillsFile).list();
      if (values.json) {
        ctx.stdout(JSON.stringify(skills, null, 2) + '\n');
        return 0;
      }
      if (skills.length === 0) ctx.stdout('No skills yet. Save a run with `switchboard skills save RUN_ID NAME`.\n');
      for (const s of skills) {
        const state = s.available === false ? `  unavailable (needs ${s.missing!.join(', ')})` : '';
        ctx.stdout(`${s.name}  from run ${s.fromRun} (${s.profile})  ${s.tools.length} tools${state}\n  ${s.description}\n`);
      }
      return 0;
    }
    if (sub === 'save' && rest.length === 2) {
      const [runId, name] = rest as [string, string];
      let input: Record<string, unknown> | undefined;
      if (values.input !== undefined) {
        // Checked on the text: a value thousands of levels deep parses, then overflows JSON.stringify on its way to the engine.
        if (jsonDeeperThan(values.input, MAX_SCHEMA_DEPTH)) throw new SwitchboardError('bad-request', SCHEMA_TOO_DEEP);
        try {
          input = JSON.parse(values.input) as Record<string, unknown>;
        } catch (err) {
          throw new SwitchboardError('bad-request', `--input is not JSON (${(err as Error).message}); pass a JSON Schema such as '{"type":"object","properties":{"repo":{"type":"string"}}}'.`);
        }
      }
      const opts = { name, input, description: values.description, replace: values.replace };
      let skill: SkillInfo;
      if (client) {
        skill = (await client.call('skills.save', { runId, ...opts })).skill;
      } else {
        ensureHome(paths);
        const runs = RunStore.open(paths.runsDir);
        try {
          const rec = runs.get(runId);
          if (!rec) throw new SwitchboardError('not-found', `No run "${runId}" in the history; \`switchboard runs\` lists them.`);
          skill = await SkillStore.open(paths.skillsFile).save(rec, opts);
        } finally {
          runs.dispose();
        }
      }
      ctx.stdout(`Saved skill "${skill.name}" from run ${skill.fromRun}: call it in code as skills.${skill.name}(input) in profiles with "codeMode": { "skills": true }.\n`);
      return 0;
    }
    if (sub === 'remove' && rest.length === 1) {
      const name = rest[0]!;
      const removed = client ? (await client.call('skills.remove', { name })).removed : await SkillStore.open(paths.skillsFile).remove(name);
      if (!removed) throw new SwitchboardError('not-found', `No skill named "${name}"; \`switchboard skills list\` lists them.`);
      ctx.stdout(`Removed skill "${name}".\n`);
      return 0;
    }
    throw new SwitchboardError('bad-request', USAGE);
  } finally {
    client?.close();
  }
}
