import { Cidr } from '../../src/net/cidr';

describe('Cidr', () => {
  it('parses IPv4 and IPv6 and rejects garbage', () => {
    expect(Cidr.tryParse('172.20.0.0/16')?.toString()).toBe('172.20.0.0/16');
    expect(Cidr.tryParse('2001:db8::/32')?.toString()).toBe('2001:db8::/32');
    expect(Cidr.tryParse('::/0')?.toString()).toBe('::/0');
    for (const bad of ['172.20.0.0/33', '172.20.0/16', '256.0.0.0/8', '1.2.3.4', '01.2.3.4/8', 'abc/3', '2001:db8:::/32', '::/129', '']) {
      expect(Cidr.tryParse(bad)).toBeUndefined();
    }
  });

  it('derives kops ranges from 100.64.0.0/10', () => {
    const nm = Cidr.parse('100.64.0.0/10');
    expect(nm.subnet(13, 0).toString()).toBe('100.64.0.0/13');
    expect(nm.subnet(11, 1).toString()).toBe('100.96.0.0/11');
    expect(Cidr.parse('100.64.0.0/13').address(10)).toBe('100.64.0.10');
    expect(Cidr.parse('100.64.0.0/13').address(1)).toBe('100.64.0.1');
  });

  it('carves /19s from a /16 and detects containment and overlap', () => {
    const vpc = Cidr.parse('172.20.0.0/16');
    expect([1, 2, 3].map((i) => vpc.subnet(19, i).toString())).toEqual(['172.20.32.0/19', '172.20.64.0/19', '172.20.96.0/19']);
    expect(vpc.contains(Cidr.parse('172.20.32.0/19'))).toBe(true);
    expect(vpc.contains(Cidr.parse('172.21.0.0/19'))).toBe(false);
    expect(Cidr.parse('172.20.32.0/19').overlaps(Cidr.parse('172.20.40.0/24'))).toBe(true);
    expect(Cidr.parse('172.20.32.0/19').overlaps(Cidr.parse('172.20.64.0/19'))).toBe(false);
    expect(() => vpc.subnet(19, 8)).toThrow(/no room/);
  });
});
