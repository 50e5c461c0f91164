import { describe, expect, it } from 'vitest';
import { commandLine, describeServer, hiddenEnv, inputEnvName, inputWords } from '../../../src-renderer/lib/server-words.ts';

describe('describeServer', () => {
  it('names the npm package that npx downloads, skipping its flags, and lists what it is given', () => {
    expect(describeServer({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/Documents'] })).toEqual({
      what: 'Downloads and runs the Node.js package “@modelcontextprotocol/server-filesystem” (npx fetches it from the npm registry).',
      extra: ['/home/me/Documents'],
    });
  });

  it('names Python packages run by uvx, also after --from', () => {
    expect(describeServer({ command: 'uvx', args: ['mcp-server-time', '--local-timezone=Europe/Berlin'] }).what).toBe(
      'Downloads and runs the Python package “mcp-server-time” (uvx fetches it from PyPI).',
    );
    expect(describeServer({ command: 'uvx', args: ['--from', 'git+https://x/y', 'tool'] }).what).toMatch(/Python package “tool”/);
  });

  it('names the container image of docker run, past flags that take a value', () => {
    const w = describeServer({ command: 'docker', args: ['run', '-i', '--rm', '-e', 'GITHUB_TOKEN', 'ghcr.io/github/github-mcp-server'] });
    expect(w.what).toBe('Runs the container image “ghcr.io/github/github-mcp-server” with Docker.');
    expect(w.extra).toEqual([]);
  });

  it('names the script a runtime runs, and the Python module of python -m', () => {
    expect(describeServer({ command: '/usr/local/bin/node', args: ['--no-warnings', '/opt/srv/index.js', '--port', '3'] })).toEqual({
      what: 'Runs the script /opt/srv/index.js with Node.js.',
      extra: ['--port', '3'],
    });
    expect(describeServer({ command: 'python3', args: ['-m', 'mcp_server_git', '--repository', '.'] }).what).toBe('Runs the Python module “mcp_server_git”.');
  });

  it('says a remote server connects over the internet, and a loopback one to this computer', () => {
    expect(describeServer({ url: 'https://mcp.example.com/mcp', transport: 'http' }).what).toBe(
      'Connects to the online service at mcp.example.com; nothing is installed on this computer.',
    );
    expect(describeServer({ url: 'http://127.0.0.1:8931/sse', transport: 'sse' }).what).toBe('Connects to a service already running on this computer (127.0.0.1:8931).');
  });

  it('falls back to the program by name, with its folder when it was given one', () => {
    expect(describeServer({ command: 'C:\\Tools\\weather.exe', args: ['--units', 'metric'] })).toEqual({
      what: 'Runs the program “weather” (C:\\Tools\\weather.exe) on this computer.',
      extra: ['--units', 'metric'],
    });
  });

  it('shows control and bidi characters from the client file as escapes', () => {
    const w = describeServer({ command: 'npx', args: ['-y', 'evil\u202epkg', 'a\nb'] });
    expect(w.what).toContain('evil\\u202epkg');
    expect(w.extra).toEqual(['a\\u000ab']);
  });
});

describe('commandLine and hiddenEnv', () => {
  it('quotes arguments with spaces and keeps code-loading variables out of the hidden list', () => {
    expect(commandLine({ command: 'node', args: ['a b', ''] })).toBe('node "a b" ""');
    expect(hiddenEnv({ envKeys: ['TOKEN', 'NODE_OPTIONS'], codeLoadingEnv: [{ name: 'NODE_OPTIONS', value: '--require x' }] })).toEqual(['TOKEN']);
  });
});

describe('inputWords', () => {
  it("names a variable, header or flag by the entry's description, else in words", () => {
    expect(inputWords({ label: 'env WEATHER_API_KEY', description: 'Your OpenWeatherMap API key' })).toEqual({ name: 'Your OpenWeatherMap API key' });
    expect(inputWords({ label: 'env WEATHER_API_KEY' })).toEqual({ name: 'Weather api key' });
    expect(inputWords({ label: 'argument --units (units)' })).toEqual({ name: 'Units' });
    expect(inputWords({ label: 'header X-Api-Key', description: '  ' })).toEqual({ name: 'X api key' });
  });

  it('keeps a plain name, with the description as help', () => {
    expect(inputWords({ label: 'Folder', description: 'The folder it may read' })).toEqual({ name: 'Folder', help: 'The folder it may read' });
    expect(inputWords({ label: 'Folder' })).toEqual({ name: 'Folder' });
  });

  it('names a variable that changes what code loads as it is, whatever its description says', () => {
    expect(inputWords({ label: 'env NODE_OPTIONS', description: 'Your name' }, true)).toEqual({ name: 'env NODE_OPTIONS', help: 'Your name' });
    expect(inputEnvName('env NODE_OPTIONS')).toBe('NODE_OPTIONS');
    expect(inputEnvName('argument --units (units)')).toBeUndefined();
  });

  it('escapes what a registry entry could hide in a description', () => {
    expect(inputWords({ label: 'env A', description: 'key\u202Eevil' }).name).not.toContain('\u202E');
  });
});
