/**
 * The network an address stands for, the one key every per-address limit and the guests' views count by (decision
 * 040): an IPv4 address is itself (an IPv4-mapped IPv6 address `::ffff:a.b.c.d` too); an IPv6 address counts by its
 * /64, since one household, phone or rented server is given a whole /64 and can pick any address in it.
 */
export function networkOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  // A zone (fe80::1%eth0) names the interface, not the address.
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
