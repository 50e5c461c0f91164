// The code surface's tool definitions (docs/code-mode.md: `execute`, plus `search_tools` and
// `get_schema` when the declarations do not fit in 12,000 characters).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CODE_MODE_DEFAULTS, type ResolvedBudgets, type ResolvedCodeModeFeatures } from '../../../src-shared/config/schema.ts';
import { SKILLS_GLOBAL, type buildCodeCatalog } from '../../../src-shared/codemode/catalog.ts';
import { globalsList, nameIndex } from '../../../src-shared/codemode/name-index.ts';

type CodeCatalog = ReturnType<typeof buildCodeCatalog>;

export const EXECUTE = 'execute';
export const SEARCH_TOOLS = 'search_tools';
export const GET_SCHEMA = 'get_schema';

function executeDescription(catalog: CodeCatalog, budgets: ResolvedBudgets, features: ResolvedCodeModeFeatures): string {
  // The `skills` global is not a server: said apart (docs/protocol.md).
  const globals = Object.keys(catalog.globals).filter((g) => !(features.skills && g === SKILLS_GLOBAL));
  const lines = [
    'Run JavaScript that calls tools. Send an async arrow function (a bare function body, or code in a Markdown fence, also works);',
    'it runs in a fresh QuickJS sandbox and its return value comes back as JSON under "Result:", after anything written with console.log under "Logs:".',
    `Each server is a global object and each of its tools a method returning a promise: ${globals.length ? globalsList(globals) : '(no servers are ready)'}.`,
    ...(features.skills
      ? ['Saved skills are the methods of the `skills` global: `await skills.NAME(input)` runs that saved code, with `input` bound to the argument, as a run of its own and returns its result.']
      : []),
    'Tool results are unwrapped: structured content as an object, JSON text parsed, other text as a string. A tool error throws an Error (use try/catch). Use Promise.all for independent calls.',
    'No fetch, require, process, timers or file system: the only way out is a tool call.',
    `Budgets: ${budgets.timeoutMs} ms, ${budgets.maxToolCalls} tool calls, ${budgets.memoryMb} MB, ${budgets.maxSourceBytes} bytes of code, ${budgets.maxResultChars} characters of result.`,
    '',
    'Example:',
    'async () => {',
    `  const r = await ${globals[0] ?? 'server'}.${catalog.globals[globals[0] ?? '']?.[0] ?? 'tool'}({ /* args */ });`,
    '  return r;',
    '}',
  ];
  if (catalog.inline) {
    lines.push('', 'TypeScript declarations of every tool:', '', catalog.declarations);
  } else {
    lines.push(
      '',
      `The declarations of this profile's ${Object.values(catalog.globals).reduce((n, m) => n + m.length, 0)} tools are too large to list here.`,
      'Find tools with the search_tools tool (or `await catalog.search("create issue", 5)` in code) and read their signatures with get_schema (or `await catalog.describe(["server.tool"])`).',
    );
    if (features.results) {
      lines.push('A result cut at the size budget is kept under a handle named in the cut note: read it in later runs with `await results.get(handle, { offset, limit })` or `await results.query(handle, "path")`.');
    }
    // The code-mode docs leave the declarations out here; the names alone still save a search (name-index.ts).
    const index = features.nameIndex ? nameIndex(catalog.globals) : '';
    if (index) lines.push('', index);
  }
  return lines.join('\n');
}

export function codeSurfaceTools(catalog: CodeCatalog, budgets: ResolvedBudgets, features: ResolvedCodeModeFeatures = CODE_MODE_DEFAULTS): Tool[] {
  const tools: Tool[] = [
    {
      name: EXECUTE,
      description: executeDescription(catalog, budgets, features),
      inputSchema: {
        type: 'object',
        properties: {
          code: { type: 'string', description: 'An async arrow function in JavaScript, e.g. async () => { return await server.tool({}) }' },
        },
        required: ['code'],
      },
    },
  ];
  if (!catalog.inline) {
    tools.push(
      {
        name: SEARCH_TOOLS,
        description: 'Find tools by what they do. Returns { name, description } entries, best first; names are as written in code, e.g. github.create_issue.',
        inputSchema: {
          type: 'object',
          properties: {
            query: { type: 'string', description: 'Words describing the tool, e.g. "create issue"' },
            limit: { type: 'integer', minimum: 1, maximum: 50, description: 'How many results (default 10)' },
          },
          required: ['query'],
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: GET_SCHEMA,
        description: 'TypeScript declarations for tools, by their code names (e.g. ["github.create_issue"]).',
        inputSchema: {
          type: 'object',
          properties: { names: { type: 'array', items: { type: 'string' }, minItems: 1 } },
          required: ['names'],
        },
        annotations: { readOnlyHint: true },
      },
    );
  }
  return tools;
}
