// The synthetic tools of a large profile, shared by the bench sections that need 1,000 tools.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** `n` synthetic tools in servers of 100 (srv0, srv1, …), as a large profile looks to the code surface. */
export function syntheticServers(n: number): { server: string; tools: Tool[] }[] {
  const tools: Tool[] = Array.from({ length: n }, (_, i) => ({
    name: `tool_${i}`,
    description: `Synthetic tool ${i} that ${['lists', 'creates', 'updates', 'deletes'][i % 4]} ${['issues', 'files', 'users', 'builds', 'tickets'][i % 5]} in a project.`,
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Identifier' },
        state: { type: 'string', enum: ['open', 'closed'] },
        labels: { type: 'array', items: { type: 'string' } },
        [`field_${i}`]: { type: 'object', properties: { a: { type: 'number' }, b: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
      },
      required: ['id'],
    },
  }));
  return Array.from({ length: Math.ceil(n / 100) }, (_, k) => ({ server: `srv${k}`, tools: tools.slice(k * 100, k * 100 + 100) }));
}
