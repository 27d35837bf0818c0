/**
 * The pull's downloads go only to the public Internet: an editor's picture address must not make the build read a
 * service of its own network (server-side request forgery). Every connection, redirects included, is checked at the
 * moment it is made, on the address it really connects to (no second DNS answer can slip in between).
 */
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, fetch } from 'undici';

/**
 * The environment variable that lets the pull download over http from loopback addresses (127.0.0.0/8, ::1): the
 * emulators' and test servers' pictures. `npm start` sets it; a production build never does.
 */
export const ALLOW_LOOPBACK_ENV = 'PICTURES_ALLOW_LOOPBACK';

/** The address a picture may not be fetched from: a loopback, private, link-local, unique-local… one. */
export class RefusedAddress extends Error {
  override name = 'RefusedAddress';
}

/** What the download may reach: over https, public addresses only; `allowLoopback` adds http and loopback. */
export interface FetchPolicy {
  allowLoopback: boolean;
}

/** The policy of this process: loopback only when ALLOW_LOOPBACK_ENV is `1`. */
export const policyFromEnv = (env = process.env): FetchPolicy => ({ allowLoopback: env[ALLOW_LOOPBACK_ENV] === '1' });

/**
 * True when `address` (an IPv4 or IPv6 address) is public unicast (ipaddr.js's `unicast` range: not loopback,
 * private, link-local, unique-local, carrier-grade NAT, multicast, reserved, documentation, 6to4…; an IPv4-mapped
 * IPv6 address is judged as its IPv4), or loopback when the policy allows it.
 */
export function isAllowedAddress(address: string, { allowLoopback }: FetchPolicy): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  const range = ipaddr.process(bare).range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/** True when the policy lets the pull ask `url` at all: https, or http under ALLOW_LOOPBACK_ENV. */
export function isAllowedScheme(url: URL, { allowLoopback }: FetchPolicy): boolean {
  return url.protocol === 'https:' || (allowLoopback && url.protocol === 'http:');
}

/** An undici dispatcher whose every connection goes only where `policy` allows (module doc). */
function guardedAgent(policy: FetchPolicy): Agent {
  type Callback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;
  // The DNS answer is judged whole: one private address among public ones is enough to refuse.
  const guardedLookup = (hostname: string, options: LookupOptions, callback: Callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.some(({ address }) => !isAllowedAddress(address, policy))) {
        return callback(new RefusedAddress(`${hostname} resolves to a refused address`), []);
      }
      return options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const connect = buildConnector({ lookup: guardedLookup as never });
  return new Agent({
    connect: (options, callback) => {
      const host = options.hostname.replace(/^\[|\]$/g, '');
      // An address written as an IP is not looked up: judged here, as is the scheme of each redirect.
      if (!isAllowedScheme(new URL(`${options.protocol}//x`), policy)) {
        return callback(new RefusedAddress(`${options.protocol} is refused`), null);
      }
      if (isIP(host) && !isAllowedAddress(host, policy)) {
        return callback(new RefusedAddress(`${host} is refused`), null);
      }
      return connect(options, callback);
    },
  });
}

const agents = new Map<boolean, Agent>();

/**
 * fetch() that connects only where `policy` allows; a refused connection rejects with a TypeError whose `cause` is a
 * RefusedAddress.
 */
export function guardedFetch(url: string, init: RequestInit, policy: FetchPolicy) {
  let agent = agents.get(policy.allowLoopback);
  if (!agent) agents.set(policy.allowLoopback, (agent = guardedAgent(policy)));
  return fetch(url, { ...(init as object), dispatcher: agent });
}

/** True when `error` (a rejected fetch) was a refusal of the policy. */
export const wasRefused = (error: unknown): boolean =>
  error instanceof RefusedAddress || (error instanceof Error && error.cause instanceof RefusedAddress);
