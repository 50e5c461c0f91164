// @ts-check
// The shim's side of the boot answer (src-main/engine/gateway/boot-answers.ts writes it): when
// no engine runs, the client's `initialize` and its first lists are answered from the file the
// last engine wrote for this client and profile, while the engine starts. Only a file written
// under the config.json that is there now is used; anything else waits for the engine.
// native/shim/src/boot.rs does the same in the native shim.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { readHomeFileSync } from './home-file.mjs';

/** A file of another version is not used. This, the bound and the lists are rules both shims share (src-shared/shim-rules.json). */
export const BOOT_FILE_VERSION = 1;
/** A boot file larger than this is not read, in bytes (the engine's are a few hundred kB; MAX_BOOT_FILE_BYTES of boot.rs). */
export const MAX_BOOT_FILE_BYTES = 64 << 20;
/** @type {Record<string, 'tools' | 'prompts' | 'resources' | 'resourceTemplates'>} */
export const BOOT_LIST_METHODS = { 'tools/list': 'tools', 'prompts/list': 'prompts', 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates' };

/**
 * @typedef {object} BootFile
 * @property {number} v
 * @property {string} profile
 * @property {string} connector
 * @property {string} clientName
 * @property {string} config
 * @property {string[]} protocolVersions
 * @property {string} latest
 * @property {Record<string, unknown>} initialize
 * @property {Record<string, unknown>} lists
 * @property {Record<string, string>} digests
 */

/** @param {string} profile @param {string} connector @param {string} clientName */
export function bootKey(profile, connector, clientName) {
  return createHash('sha256').update(`${profile}\u0000${connector}\u0000${clientName}`, 'utf8').digest('hex').slice(0, 32);
}

/** @param {string} file */
export function fileStamp(file) {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.mtimeNs}:${st.size}`;
  } catch {
    return '-';
  }
}

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The boot answer for this client, or undefined when there is none that may be used.
 * @param {string} home @param {string} profile @param {string} connector @param {string} clientName
 * @returns {BootFile | undefined}
 */
export function readBootAnswer(home, profile, connector, clientName) {
  /** @type {unknown} */
  let file;
  try {
    const name = path.join(home, 'run', 'boot', `${bootKey(profile, connector, clientName)}.json`);
    file = JSON.parse(readHomeFileSync(name, { maxBytes: MAX_BOOT_FILE_BYTES }).toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(file) || file.v !== BOOT_FILE_VERSION) return undefined;
  if (file.profile !== profile || file.connector !== connector || file.clientName !== clientName) return undefined;
  if (!isObject(file.initialize) || !isObject(file.lists) || !isObject(file.digests) || !Array.isArray(file.protocolVersions) || typeof file.latest !== 'string') return undefined;
  if (file.config !== fileStamp(path.join(home, 'config.json'))) return undefined;
  return /** @type {BootFile} */ (/** @type {unknown} */ (file));
}

/** @param {unknown} id @param {unknown} result */
const response = (id, result) => `${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`;

/**
 * What the shim answers a client line from a boot answer: the response line, whether to drop the
 * line unanswered (the initialized notification: the engine gets it replayed), or nothing (relay
 * it to the engine once there). `boot` is the file once initialize was answered from it.
 * @param {Record<string, unknown>} msg @param {BootFile} boot
 * @returns {{ reply?: string, drop?: true, served?: string } | undefined}
 */
export function answerFromBoot(msg, boot) {
  const method = msg.method;
  if (!('id' in msg)) return method === 'notifications/initialized' ? { drop: true } : undefined;
  if (method === 'ping') return { reply: response(msg.id, {}) };
  const kind = typeof method === 'string' ? BOOT_LIST_METHODS[method] : undefined;
  if (!kind) return undefined;
  const params = msg.params;
  if (isObject(params) && params.cursor !== undefined) return undefined;
  const list = boot.lists[kind];
  if (!isObject(list)) return undefined;
  return { reply: response(msg.id, list), served: kind };
}

/**
 * The initialize answer from a boot answer, as the engine's SDK Server would give it: the version
 * the client asked for when supported, else the latest.
 * @param {Record<string, unknown>} msg @param {BootFile} boot
 */
export function initializeFromBoot(msg, boot) {
  const params = isObject(msg.params) ? msg.params : {};
  const asked = params.protocolVersion;
  const protocolVersion = typeof asked === 'string' && boot.protocolVersions.includes(asked) ? asked : boot.latest;
  return response(msg.id, { protocolVersion, ...boot.initialize });
}

/** The clientInfo.name of an initialize's params, or undefined. @param {unknown} params */
export function clientNameOf(params) {
  const info = isObject(params) ? params.clientInfo : undefined;
  const name = isObject(info) ? info.name : undefined;
  return typeof name === 'string' ? name : undefined;
}
