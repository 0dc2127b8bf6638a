import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

type TInterfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/**
 * The base URLs a browser can open for a server listening on `host`. `0.0.0.0` and `::` mean "every
 * interface", an address no browser can open, so the machine's own addresses are given instead: its IPv4
 * ones for `0.0.0.0`, every one for `::` (which takes IPv4 too). IPv6 link-local addresses are left out:
 * a browser needs them with an interface name, which URLs cannot carry.
 */
export function browsableBaseUrls(host: string, port: number, interfaces: TInterfaces = networkInterfaces()): string[] {
  const everyInterface = host === '0.0.0.0' || host === '::';
  const hosts = everyInterface ? machineAddresses(interfaces, host === '0.0.0.0') : [];
  return (hosts.length > 0 ? hosts : [host]).map(
    (address) => `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
  );
}

function machineAddresses(interfaces: TInterfaces, ipv4Only: boolean): string[] {
  return Object.values(interfaces)
    .flatMap((addresses) => addresses ?? [])
    .filter((info) => (info.family === 'IPv4' || !ipv4Only) && !info.address.toLowerCase().startsWith('fe80:'))
    .map((info) => info.address);
}
