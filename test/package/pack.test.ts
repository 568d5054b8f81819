/**
 * What a vendor installs: `npm pack`, then the tarball in an empty project.
 * The package is compiled JavaScript with type declarations (dist/, built by
 * `prepare`): the bin, the bundled cases, the schemas and the reference must
 * work from there under plain Node, without a TypeScript loader, and the
 * Python example must pass through `--stdio`.
 *
 * The install is `npm ci --offline` from a lockfile made of the repo's own:
 * `npm ci` needs tarballs only, and the repo's `npm ci` has just put exactly
 * those in the cache, so the test neither reaches the network nor depends on
 * registry metadata that an earlier `npm install` left in ~/.npm (it does not
 * exist on a fresh machine: ENOTCACHED).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-pack-'));
const project = join(tmp, 'vendor');
let files: string[] = [];

beforeAll(() => {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--pack-destination', tmp, '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as {
    filename: string;
    files: { path: string }[];
  }[];
  files = packed[0]!.files.map((f) => f.path);
  mkdirSync(project);
  const tarball = `file:../${packed[0]!.filename}`;
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'vendor', version: '1.0.0', private: true, type: 'module', dependencies: { ctxconform: tarball } }),
  );
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(vendorLock(tarball)));
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] });
  // vitest, the helper's optional peer, is the vendor's own and not in the npm cache as a tarball: the repo's copy stands in.
  symlinkSync(join(root, 'node_modules/vitest'), join(project, 'node_modules/vitest'));
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface LockEntry {
  version?: string;
  dev?: boolean;
  [member: string]: unknown;
}

/** The vendor's lockfile: the packed kit, plus the repo's runtime (non-dev) entries, which hoist to the same paths. */
function vendorLock(tarball: string): object {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const kit = lock.packages['']!;
  const packages: Record<string, LockEntry> = {
    '': { name: 'vendor', version: '1.0.0', dependencies: { ctxconform: tarball } },
    'node_modules/ctxconform': {
      version: kit.version,
      resolved: tarball,
      license: kit['license'],
      dependencies: kit['dependencies'],
      bin: kit['bin'],
      engines: kit['engines'],
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && !entry.dev) packages[path] = entry;
  return { name: 'vendor', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

const npx = (...args: string[]): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync('npx', ['--offline', 'ctxconform', ...args], { cwd: project, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('the packed kit in an empty project', () => {
  it('holds bin, compiled JavaScript with declarations, cases, schemas and SPEC.md; no TypeScript sources and no tests', () => {
    for (const f of [
      'bin/ctxconform.mjs',
      'dist/reference/index.js',
      'dist/reference/index.d.ts',
      'dist/cli/run.js',
      'dist/adapters/module-worker.js',
      'dist/corpus.json',
      'protocol/schemas/report.schema.json',
      'judging/cases/case.schema.json',
      'adapters/examples/python/impl.py',
      'SPEC.md',
      'README.md',
      'package.json',
    ]) {
      expect(files).toContain(f);
    }
    expect(files.some((f) => f.startsWith('cases/') && f.endsWith('.yaml'))).toBe(true);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('test/') || f.startsWith('bench/') || f.includes('.test.') || f.includes('tsbuildinfo'))).toEqual([]);
  });

  it('installs its runtime dependencies and the bin, and no TypeScript loader (tsx is an optional peer)', () => {
    const installed = readdirSync(join(project, 'node_modules'));
    for (const dep of ['ctxconform', 'ajv', 'yaml', 'undici', 'fast-check']) expect(installed).toContain(dep);
    expect(installed).not.toContain('tsx');
    expect(installed).not.toContain('esbuild');
    expect(existsSync(join(project, 'node_modules/.bin/ctxconform'))).toBe(true);
  });

  it('runs the bundled corpus against the Python example over stdio: exit 0', () => {
    const impl = join(root, 'adapters/examples/python/impl.py');
    const r = npx('run', '--stdio', `python3 "${impl}"`, '--properties', '0', '--json', 'report.json');
    expect(r.stderr).not.toMatch(/Error:/);
    expect(r.stdout).toMatch(/^PASS: \d+ pass, 0 fail, 0 error, 0 timeout, 0 crash, \d+ skip/m);
    expect(r.status).toBe(0);
    expect(existsSync(join(project, 'report.json'))).toBe(true);
  });

  it("runs from a clone without installing, as README Install's first way says: node CLONE/bin/ctxconform.mjs, from the vendor's folder", () => {
    const r = spawnSync(process.execPath, [join(root, 'bin/ctxconform.mjs'), 'run', '--properties', '0', '--filter', 'expiry/*'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\nPASS: 13 pass, 0 fail/);
  });

  it('runs from a clone without installing: npx --prefix CLONE', () => {
    const r = spawnSync('npx', ['--offline', '--prefix', root, 'ctxconform', '--version'], { cwd: project, encoding: 'utf8' });
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
  });

  it('runs the reference with properties from the package', () => {
    const r = npx('run', '--cases', 'none', '--properties', '5');
    expect(r.stdout).toMatch(/^all\s+\d+\s+0\s+0\s+0\s+0/m);
    expect(r.status).toBe(0);
  });

  it('a plain Node ESM program imports the reference, the schemas, the report writers, the vitest helper and the observer', () => {
    const script =
      `import { assemble, describe as manifest } from 'ctxconform'; import { assemble as again } from 'ctxconform/reference';
import { validators } from 'ctxconform/schemas'; import { renderBadge } from 'ctxconform/report';
import { defineConformanceSuite } from 'ctxconform/vitest';
import { observe } from 'ctxconform/observe';
const observed = observe(assemble, { manifest: manifest() });
const same = JSON.stringify(observed({ now: 0, budget: 100, blocks: [] })) === JSON.stringify(assemble({ now: 0, budget: 100, blocks: [] }));
const drained = await observed.observer.drain(10000);
await observed.observer.close();
const r = assemble({ now: 0, budget: 100, blocks: [{ block_id: 'a', source: 'memory', content: 'abcd', priority: 1 }] });
const v = validators.request();
console.log(JSON.stringify({ included: r.included, same: again === assemble, valid: v({ now: 0, budget: 1, ` +
      `blocks: [] }), badge: typeof renderBadge, suite: typeof defineConformanceSuite, observed: same && drained && observed.observer.stats().judged.pass === 1 }));`;
    writeFileSync(join(project, 'lib.mjs'), script);
    const out = execFileSync(process.execPath, ['lib.mjs'], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ included: ['a'], same: true, valid: true, badge: 'function', suite: 'function', observed: true });
  });

  it('its type declarations resolve through the exports for a TypeScript vendor', () => {
    writeFileSync(
      join(project, 'typed.mts'),
      `import { assemble } from 'ctxconform/reference';\nimport type { Report } from 'ctxconform/report';\n` +
        `const r = assemble({ now: 0, budget: 1, blocks: [] });\nconst n: number = 'included' in r ? r.included.length : 0;\nconst s: Report['summary'] | undefined = undefined;\nexport { n, s };\n`,
    );
    writeFileSync(join(project, 'wrong.mts'), `import { assemble } from 'ctxconform/reference';\nconst x: string = assemble;\nexport { x };\n`);
    // One compiler run for both: the declarations carry real types, so the wrong use is an error (not an any), and the right one none.
    const r = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--types',
        'node',
        '--typeRoots',
        join(root, 'node_modules/@types'),
        'typed.mts',
        'wrong.mts',
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(r.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^wrong\.mts\(2,7\): error TS2322: /)]);
  });

  it('a TypeScript module needs tsx, and says so; a JavaScript module needs nothing', () => {
    writeFileSync(join(project, 'impl.mjs'), `export { assemble, describe } from 'ctxconform/reference';\n`);
    const js = npx('run', '--module', 'impl.mjs', '--properties', '0', '--quiet');
    expect(js.stdout).toMatch(/^PASS: \d+ pass, 0 fail/m);
    writeFileSync(join(project, 'impl.ts'), `export { assemble, describe } from 'ctxconform/reference';\n`);
    const ts = npx('run', '--module', 'impl.ts', '--properties', '0');
    expect(ts.status).toBe(2);
    expect(ts.stderr).toMatch(/impl\.ts is TypeScript, and loading it needs tsx \(npm install --save-dev tsx\)/);
  });

  it('the vitest helper runs inside a vendor vitest run: passes for the Python example, fails for a broken module', () => {
    // A vendor whose assembler is TypeScript has tsx (the module below is); the repo's copy stands in.
    symlinkSync(join(root, 'node_modules/tsx'), join(project, 'node_modules/tsx'));
    mkdirSync(join(project, 't'));
    const impl = join(root, 'adapters/examples/python/impl.py');
    const broken = join(root, 'test/fixtures/broken/chars-per-token-3.ts');
    writeFileSync(
      join(project, 't/python.test.ts'),
      `import { defineConformanceSuite } from 'ctxconform/vitest';\ndefineConformanceSuite({ stdio: ${JSON.stringify(`python3 "${impl}"`)} }, { filter: 'expiry/*' });\n`,
    );
    writeFileSync(
      join(project, 't/broken.test.ts'),
      `import { defineConformanceSuite } from 'ctxconform/vitest';\ndefineConformanceSuite({ module: ${JSON.stringify(broken)} }, { filter: 'expiry/*,tiers/*' });\n`,
    );
    const vitest = (file: string): { status: number | null; out: string } => {
      const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', file, '--reporter', 'verbose'], {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, CI: 'true', NO_COLOR: '1' },
      });
      return { status: r.status, out: (r.stdout + r.stderr).replace(/\u001b\[[0-9;]*m/g, '') };
    };
    const ok = vitest('t/python.test.ts');
    expect(ok.out).toMatch(/ctxconform > expiry > expiry\/boundary-equal/);
    expect(ok.status).toBe(0);
    const bad = vitest('t/broken.test.ts');
    expect(bad.status).toBe(1);
    expect(bad.out).toMatch(/FAIL [a-z-]+\/[a-z0-9-]+ {2}\[/);
    // The failure says how to rerun that case outside vitest.
    expect(bad.out).toMatch(/rerun: npx ctxconform run --module \S*chars-per-token-3\.ts --filter [a-z-]+\/[a-z0-9-]+ --properties 0/);
  }, 60_000);
});
