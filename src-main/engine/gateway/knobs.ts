// What tests and the bench may turn on a gateway, and the counters they read. Production leaves
// the knobs at their defaults; nothing here is part of status or the control API.
import { SETTLE_WAIT_MS } from '../upstream/supervisor.ts';

export class GatewayKnobs {
  /**
   * Whether tools/call may take a server's direct lane (direct-calls.ts). Off, every call takes
   * the SDK path: tests compare the two, and the bench runs it (SWITCHBOARD_SDK_PATH=1).
   */
  fastPath = true;
  /** How long settle() waits for a profile's starting servers, in ms (tests shorten it). */
  settleWaitMs = SETTLE_WAIT_MS;
  /** How long a call waits for its server's start, in ms: the default start timeout of a server. */
  startWaitMs = 60_000;
}

/** Counts of tool calls by path since start, for tests and the bench. */
export class CallStats {
  /** Calls that took the SDK path (the upstream's Client). */
  sdkCalls = 0;
  /** Calls written straight onto a server's direct lane. */
  directCalls = 0;
  /** `execute` calls the socket's fast path took (fast-calls.ts). */
  fastExecutes = 0;
}
