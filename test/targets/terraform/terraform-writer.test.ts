import { bodyLines, hclString } from '../../../src/targets/terraform/hcl-format';
import { TerraformNameCollisionError, TerraformReferenceError } from '../../../src/targets/terraform/terraform-errors';
import { terraformName, TerraformWriter } from '../../../src/targets/terraform/terraform-writer';
import { HclBlock, HclExpression } from '../../../src/tasks/terraform-target';

describe('HCL writer', () => {
  it('escapes strings so that no value is read as a template or breaks the literal', () => {
    expect(hclString('a"b\\c\nd${x}%{y}')).toBe('"a\\"b\\\\c\\nd$${x}%%{y}"');
  });

  it('aligns runs of one-line attributes; blocks and multi-line values break a run; keys are sorted', () => {
    const lines = bodyLines({ zz: 1, a: 'x', tags: { b: '2', 'long-key': '1' }, bbb: true, blk: new HclBlock({ q: new HclExpression('aws_vpc.v.id') }) }, 1);
    expect(lines.join('\n').split('\n')).toEqual([
      '  a   = "x"',
      '  bbb = true',
      '  blk {',
      '    q = aws_vpc.v.id',
      '  }',
      '  tags = {',
      '    "b"        = "2"',
      '    "long-key" = "1"',
      '  }',
      '  zz = 1',
    ]);
  });

  it('names resources as kops does: punctuation to dashes, a leading digit prefixed with the short type', () => {
    expect(terraformName('aws_vpc', 'x.example.com')).toBe('x-example-com');
    expect(terraformName('aws_route', '0.0.0.0/0')).toBe('route-0-0-0-0--0');
    expect(terraformName('aws_security_group_rule', 'from-nodes.x-egress-all-0to0-::/0')).toBe('from-nodes-x-egress-all-0to0-__--0');
  });

  it('resolves references when written, whatever the order tasks render in', () => {
    const w = new TerraformWriter('us-east-1');
    const vpc = { kind: 'VPC', name: 'x.example.com' };
    w.addResource({ kind: 'Subnet', name: 'a.x.example.com' }, 'aws_subnet', { vpc_id: w.reference(vpc, 'id') });
    w.addResource(vpc, 'aws_vpc', { cidr_block: '10.0.0.0/16' });
    expect(w.files().get('kubernetes.tf')).toContain('  vpc_id = aws_vpc.x-example-com.id\n');
  });

  it('refuses a reference to a task that rendered nothing, and two resources of one address', () => {
    const w = new TerraformWriter('us-east-1');
    w.renderTasks([{ kind: 'Subnet', name: 's', renderTerraform: (t) => t.addResource({ kind: 'Subnet', name: 's' }, 'aws_subnet', { vpc_id: t.reference({ kind: 'VPC', name: 'v' }, 'id') }) }]);
    expect(() => w.files()).toThrow(TerraformReferenceError);
    expect(() => w.files()).toThrow('Subnet/s refers to VPC/v');
    const c = new TerraformWriter('us-east-1');
    c.addResource({ kind: 'Subnet', name: 'a.b' }, 'aws_subnet', {});
    expect(() => c.addResource({ kind: 'Subnet', name: 'a-b' }, 'aws_subnet', {})).toThrow(TerraformNameCollisionError);
  });

  it('puts data files under data/ with kops names and reads user-data with filebase64', () => {
    const w = new TerraformWriter('us-east-1');
    const e = w.addFile('aws_launch_template', 'nodes.x.example.com', 'user_data', '#!/bin/bash\n', 'base64');
    expect(e.toString()).toBe('filebase64("${path.module}/data/aws_launch_template_nodes.x.example.com_user_data")');
    expect([...w.files().keys()]).toEqual(['kubernetes.tf', 'data/aws_launch_template_nodes.x.example.com_user_data']);
  });
});
