// Well-known MCP servers that ship with the app, so that the Catalog page has something to offer
// with no network (the live MCP Registry adds to it when reachable; shipped-catalog.ts merges).
// Pure data. Each `server` is server.json as the registry serves it (API v0.1 ServerResponse's
// `server`), read by the same parser as registry answers; `labels` gives the short names a person
// sees for the values asked (server.json has only descriptions), keyed by env variable, header,
// argument name or {variable}.
//
// Packages are not pinned: each runs its current release, as its own README tells people to
// (`npx -y PACKAGE`, `uvx PACKAGE`). Facts checked against each server's README; names are
// this list's own (the registry may list the same server under another name: the merge matches
// packages and URLs too).

export interface ShippedServer {
  /** The name it gets in config.json (and in its tools' names, `<key>__<tool>`): short and plain. */
  key: string;
  server: Record<string, unknown>;
  labels?: Record<string, string>;
}

const REFERENCE = { url: 'https://github.com/modelcontextprotocol/servers', source: 'github' };

function npm(identifier: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return { registryType: 'npm', identifier, transport: { type: 'stdio' }, ...more };
}

function pypi(identifier: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return { registryType: 'pypi', identifier, runtimeHint: 'uvx', transport: { type: 'stdio' }, ...more };
}

function secretEnv(name: string, description: string): Record<string, unknown> {
  return { name, description, isRequired: true, isSecret: true };
}

/** A remote server that signs people in itself (OAuth): nothing to fill in. */
function remote(url: string, type: 'streamable-http' | 'sse' = 'streamable-http', headers: unknown[] = []): Record<string, unknown> {
  return { type, url, ...(headers.length ? { headers } : {}) };
}

/** `Authorization: Bearer {token}`, the token asked as a secret. */
function bearer(description: string, required = true): Record<string, unknown> {
  return { name: 'Authorization', value: 'Bearer {token}', isSecret: true, isRequired: required, variables: { token: { description, isRequired: required, isSecret: true } } };
}

export const SHIPPED_SERVERS: ShippedServer[] = [
  {
    key: 'files',
    server: {
      name: 'io.github.modelcontextprotocol/server-filesystem',
      title: 'Files on this computer',
      description: 'Lets the AI read, write and search files inside one folder you choose.',
      version: 'shipped',
      repository: REFERENCE,
      packages: [npm('@modelcontextprotocol/server-filesystem', { packageArguments: [{ type: 'positional', valueHint: 'folder', isRequired: true, description: 'The full path of the folder it may use, e.g. /Users/you/Documents. It cannot reach anything outside it.' }] })],
    },
    labels: { folder: 'Folder' },
  },
  {
    key: 'memory',
    server: {
      name: 'io.github.modelcontextprotocol/server-memory',
      title: 'Memory',
      description: 'Gives the AI a memory of people, things and facts that lasts between chats.',
      version: 'shipped',
      repository: REFERENCE,
      packages: [npm('@modelcontextprotocol/server-memory', { environmentVariables: [{ name: 'MEMORY_FILE_PATH', description: 'Where the memory is kept (a file path). Leave empty to keep it in the server’s own folder.' }] })],
    },
    labels: { MEMORY_FILE_PATH: 'Memory file' },
  },
  {
    key: 'everything',
    server: {
      name: 'io.github.modelcontextprotocol/server-everything',
      title: 'Everything (test server)',
      description: 'A test server that shows every MCP feature; handy to check that a client works.',
      version: 'shipped',
      repository: REFERENCE,
      packages: [npm('@modelcontextprotocol/server-everything', { packageArguments: [{ type: 'positional', value: 'stdio' }] })],
    },
  },
  {
    key: 'sequential-thinking',
    server: {
      name: 'io.github.modelcontextprotocol/server-sequential-thinking',
      title: 'Sequential thinking',
      description: 'Helps the AI work through a hard problem step by step, revising as it goes.',
      version: 'shipped',
      repository: REFERENCE,
      packages: [npm('@modelcontextprotocol/server-sequential-thinking')],
    },
  },
  {
    key: 'fetch',
    server: {
      name: 'io.github.modelcontextprotocol/server-fetch',
      title: 'Fetch web pages',
      description: 'Lets the AI open a web page and read it as plain text.',
      version: 'shipped',
      repository: REFERENCE,
      packages: [pypi('mcp-server-fetch')],
    },
  },
  {
    key: 'git',
    server: {
      name: 'io.github.modelcontextprotocol/server-git',
      title: 'Git',
      description: 'Lets the AI look at and work with Git repositories on this computer.',
      version: 'shipped',
      repository: REFERENCE,
      packages: [pypi('mcp-server-git')],
    },
  },
  {
    key: 'time',
    server: {
      name: 'io.github.modelcontextprotocol/server-time',
      title: 'Time and time zones',
      description: 'Tells the AI the current time anywhere and converts between time zones.',
      version: 'shipped',
      repository: REFERENCE,
      packages: [pypi('mcp-server-time')],
    },
  },
  {
    key: 'playwright',
    server: {
      name: 'io.github.microsoft/playwright-mcp',
      title: 'Playwright browser',
      description: 'Lets the AI drive a web browser: open pages, click, type and take screenshots.',
      version: 'shipped',
      repository: { url: 'https://github.com/microsoft/playwright-mcp', source: 'github' },
      packages: [npm('@playwright/mcp')],
    },
  },
  {
    key: 'notion',
    server: {
      name: 'io.github.makenotion/notion-mcp-server',
      title: 'Notion',
      description: 'Lets the AI search, read and edit the Notion pages and databases you share with it.',
      version: 'shipped',
      repository: { url: 'https://github.com/makenotion/notion-mcp-server', source: 'github' },
      packages: [npm('@notionhq/notion-mcp-server', { environmentVariables: [secretEnv('NOTION_TOKEN', 'Create an internal integration at notion.so/profile/integrations, copy its secret (it starts with ntn_), and share your pages with it.')] })],
      remotes: [remote('https://mcp.notion.com/mcp')],
    },
    labels: { NOTION_TOKEN: 'Notion integration secret' },
  },
  {
    key: 'brave-search',
    server: {
      name: 'io.github.brave/brave-search-mcp-server',
      title: 'Brave Search',
      description: 'Lets the AI search the web, news, images and places with Brave Search.',
      version: 'shipped',
      repository: { url: 'https://github.com/brave/brave-search-mcp-server', source: 'github' },
      packages: [npm('@brave/brave-search-mcp-server', { environmentVariables: [secretEnv('BRAVE_API_KEY', 'Get a key at brave.com/search/api (there is a free plan).')] })],
    },
    labels: { BRAVE_API_KEY: 'Brave Search API key' },
  },
  {
    key: 'firecrawl',
    server: {
      name: 'io.github.firecrawl/firecrawl-mcp-server',
      title: 'Firecrawl',
      description: 'Lets the AI scrape, crawl and search websites and pull out their content.',
      version: 'shipped',
      repository: { url: 'https://github.com/firecrawl/firecrawl-mcp-server', source: 'github' },
      packages: [npm('firecrawl-mcp', { environmentVariables: [secretEnv('FIRECRAWL_API_KEY', 'Get a key at firecrawl.dev/app/api-keys (it starts with fc-).')] })],
    },
    labels: { FIRECRAWL_API_KEY: 'Firecrawl API key' },
  },
  {
    key: 'airtable',
    server: {
      name: 'io.github.domdomegg/airtable-mcp-server',
      title: 'Airtable',
      description: 'Lets the AI read and change the records in your Airtable bases.',
      version: 'shipped',
      repository: { url: 'https://github.com/domdomegg/airtable-mcp-server', source: 'github' },
      packages: [npm('airtable-mcp-server', { environmentVariables: [secretEnv('AIRTABLE_API_KEY', 'Create a personal access token at airtable.com/create/tokens with access to the bases you want.')] })],
    },
    labels: { AIRTABLE_API_KEY: 'Airtable access token' },
  },
  {
    key: 'supabase',
    server: {
      name: 'io.github.supabase-community/supabase-mcp',
      title: 'Supabase',
      description: 'Lets the AI manage your Supabase projects: tables, queries, logs and more.',
      version: 'shipped',
      repository: { url: 'https://github.com/supabase-community/supabase-mcp', source: 'github' },
      packages: [npm('@supabase/mcp-server-supabase', { environmentVariables: [secretEnv('SUPABASE_ACCESS_TOKEN', 'Create a personal access token in your Supabase dashboard under Account, Access Tokens.')] })],
    },
    labels: { SUPABASE_ACCESS_TOKEN: 'Supabase access token' },
  },
  {
    key: 'mongodb',
    server: {
      name: 'io.github.mongodb-js/mongodb-mcp-server',
      title: 'MongoDB',
      description: 'Lets the AI look at and query your MongoDB databases.',
      version: 'shipped',
      repository: { url: 'https://github.com/mongodb-js/mongodb-mcp-server', source: 'github' },
      packages: [npm('mongodb-mcp-server', { environmentVariables: [secretEnv('MDB_MCP_CONNECTION_STRING', 'The connection string of your database, starting with mongodb:// or mongodb+srv://.')] })],
    },
    labels: { MDB_MCP_CONNECTION_STRING: 'Connection string' },
  },
  {
    key: 'hubspot',
    server: {
      name: 'io.github.hubspot/mcp-server',
      title: 'HubSpot',
      description: 'Lets the AI read and update contacts, companies and deals in your HubSpot CRM.',
      version: 'shipped',
      packages: [npm('@hubspot/mcp-server', { environmentVariables: [secretEnv('PRIVATE_APP_ACCESS_TOKEN', 'Create a private app in HubSpot (Settings, Integrations, Private Apps) and copy its access token.')] })],
    },
    labels: { PRIVATE_APP_ACCESS_TOKEN: 'HubSpot private app token' },
  },
  {
    key: 'mapbox',
    server: {
      name: 'io.github.mapbox/mcp-server',
      title: 'Mapbox',
      description: 'Lets the AI find places, plan routes and make maps with Mapbox.',
      version: 'shipped',
      repository: { url: 'https://github.com/mapbox/mcp-server', source: 'github' },
      packages: [npm('@mapbox/mcp-server', { environmentVariables: [secretEnv('MAPBOX_ACCESS_TOKEN', 'Copy an access token from your Mapbox account page.')] })],
    },
    labels: { MAPBOX_ACCESS_TOKEN: 'Mapbox access token' },
  },
  {
    key: 'circleci',
    server: {
      name: 'io.github.circleci-public/mcp-server-circleci',
      title: 'CircleCI',
      description: 'Lets the AI check your CircleCI builds and find out why one failed.',
      version: 'shipped',
      repository: { url: 'https://github.com/CircleCI-Public/mcp-server-circleci', source: 'github' },
      packages: [npm('@circleci/mcp-server-circleci', { environmentVariables: [secretEnv('CIRCLECI_TOKEN', 'Create a personal API token in CircleCI under User Settings, Personal API Tokens.')] })],
    },
    labels: { CIRCLECI_TOKEN: 'CircleCI API token' },
  },
  {
    key: 'context7',
    server: {
      name: 'io.github.upstash/context7',
      title: 'Context7',
      description: 'Gives the AI up-to-date documentation and code samples for programming libraries.',
      version: 'shipped',
      repository: { url: 'https://github.com/upstash/context7', source: 'github' },
      remotes: [remote('https://mcp.context7.com/mcp', 'streamable-http', [{ name: 'CONTEXT7_API_KEY', description: 'Optional: a key from context7.com/dashboard gives higher limits.', isSecret: true }])],
    },
    labels: { CONTEXT7_API_KEY: 'Context7 API key' },
  },
  {
    key: 'github',
    server: {
      name: 'io.github.github/github-mcp-server',
      title: 'GitHub',
      description: 'Lets the AI work with your GitHub repositories, issues and pull requests.',
      version: 'shipped',
      repository: { url: 'https://github.com/github/github-mcp-server', source: 'github' },
      remotes: [remote('https://api.githubcopilot.com/mcp/', 'streamable-http', [bearer('Create a personal access token at github.com/settings/tokens with access to the repositories you want.')])],
    },
    labels: { token: 'GitHub personal access token' },
  },
  {
    key: 'linear',
    server: {
      name: 'app.linear/linear',
      title: 'Linear',
      description: 'Lets the AI find, create and update issues and projects in Linear.',
      version: 'shipped',
      remotes: [remote('https://mcp.linear.app/mcp')],
    },
  },
  {
    key: 'sentry',
    server: {
      name: 'io.github.getsentry/sentry-mcp',
      title: 'Sentry',
      description: 'Lets the AI look into errors and performance problems that Sentry caught.',
      version: 'shipped',
      repository: { url: 'https://github.com/getsentry/sentry-mcp', source: 'github' },
      remotes: [remote('https://mcp.sentry.dev/mcp')],
    },
  },
  {
    key: 'atlassian',
    server: {
      name: 'com.atlassian/atlassian-mcp-server',
      title: 'Atlassian (Jira and Confluence)',
      description: 'Lets the AI search and update Jira issues and Confluence pages.',
      version: 'shipped',
      remotes: [remote('https://mcp.atlassian.com/v1/sse', 'sse')],
    },
  },
  {
    key: 'stripe',
    server: {
      name: 'com.stripe/mcp',
      title: 'Stripe',
      description: 'Lets the AI look up and manage customers, payments and invoices in Stripe.',
      version: 'shipped',
      remotes: [remote('https://mcp.stripe.com', 'streamable-http', [bearer('A Stripe secret or restricted key (a restricted key limits what the AI can do).')])],
    },
    labels: { token: 'Stripe API key' },
  },
  {
    key: 'huggingface',
    server: {
      name: 'co.huggingface/hf-mcp-server',
      title: 'Hugging Face',
      description: 'Lets the AI search models, datasets, papers and apps on Hugging Face.',
      version: 'shipped',
      remotes: [remote('https://huggingface.co/mcp')],
    },
  },
  {
    key: 'asana',
    server: {
      name: 'com.asana/mcp',
      title: 'Asana',
      description: 'Lets the AI read and update your tasks and projects in Asana.',
      version: 'shipped',
      remotes: [remote('https://mcp.asana.com/sse', 'sse')],
    },
  },
];
