import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCloudProvider } from '../../src/cloud/cloud-provider';
import { UsageError } from '../../src/errors/usage-error';

const SRC = path.join(__dirname, '../../src');

/** Every .ts file under a directory of src/, recursively. */
function sources(dir: string): string[] {
  return fs.readdirSync(path.join(SRC, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** The module specifiers a file imports: static, type-only and dynamic (`import('…')`). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  const specs = [...text.matchAll(/\bfrom\s+'([^']+)'/g), ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g), ...text.matchAll(/^import\s+'([^']+)'/gm)].map((m) => m[1]);
  return specs.map((s) => (s.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file.split(path.sep).join('/')), s)) : s));
}

describe('the cloud seam', () => {
  it('ops/ imports nothing from cloud/aws (nor any cloud SDK): the completed spec picks the provider through cloud/cloud-provider', () => {
    const offending = sources('ops').flatMap((f) => importsOf(f).filter((s) => s.startsWith('cloud/aws') || s.startsWith('@aws-sdk/') || s.startsWith('@google-cloud/')).map((s) => `${f} -> ${s}`));
    expect(offending).toEqual([]);
  });

  it('validation and rolling update read the cloud through the seam too', () => {
    const files = [...sources('cluster-validation'), ...sources('rolling-update')];
    const offending = files.flatMap((f) => importsOf(f).filter((s) => s.startsWith('cloud/aws/aws-cloud') || s.startsWith('cloud/aws/connect-aws-cloud')).map((s) => `${f} -> ${s}`));
    expect(offending).toEqual([]);
  });

  it('the seam module loads no provider until asked (AWS loads lazily)', () => {
    const seam = importsOf(path.join('cloud', 'cloud-provider.ts'));
    const valueImports = fs.readFileSync(path.join(SRC, 'cloud/cloud-provider.ts'), 'utf8').match(/^import (?!type )[^;]*;/gm) ?? [];
    expect(valueImports.filter((l) => /cloud\/aws|\.\/aws\//.test(l))).toEqual([]);
    expect(seam).toContain('cloud/aws/aws-cloud-provider');
  });

  it('picks AWS for aws, and refuses a cloud it does not build with a UsageError naming the command', async () => {
    expect((await loadCloudProvider('aws', 'update cluster')).name).toBe('aws');
    await expect(loadCloudProvider('azure', 'update cluster')).rejects.toBeInstanceOf(UsageError);
  });
});
