// The docs hold together: every relative link of README.md, the root's pages and docs/ (the frozen history aside)
// names a file that exists and, with #anchor, a heading or `<a id>` there; every decision link of the tracker's
// tuning constants resolves too; README stays an index (≤ 300 lines, no table cell over 300 characters).
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function markdown(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(join(root, p)).isDirectory()) return name === 'history' ? [] : markdown(p);
    return p.endsWith('.md') ? [p] : [];
  });
}

/** GitHub's anchor for a heading: lower case, punctuation but hyphens and underscores dropped, spaces to hyphens. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(join(root, file), 'utf8');
  return new Set([...[...text.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1])), ...[...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1])]);
}

/** Links that do not resolve, as "file → target". */
function brokenLinks(file: string, links: string[]): string[] {
  return links.flatMap((link) => {
    if (/^[a-z]+:/.test(link) || link.startsWith('#') && link.length === 1) return [];
    const [path, anchor] = link.split('#');
    const target = path ? relative(root, resolve(root, dirname(file), path)) : file;
    if (!existsSync(join(root, target))) return [`${file} → ${link} (no such file)`];
    if (anchor && target.endsWith('.md') && !anchors(target).has(anchor)) return [`${file} → ${link} (no such anchor)`];
    return [];
  });
}

const pages = ['README.md', 'ARCHITECTURE.md', 'BENCHMARKS.md', 'CHANGELOG.md', ...markdown('docs')];

describe('the docs', () => {
  it('link only to files and anchors that exist', () => {
    expect(pages.length).toBeGreaterThan(25);
    const broken = pages.flatMap((f) => brokenLinks(f, [...readFileSync(join(root, f), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1])));
    expect(broken).toEqual([]);
  });

  it("the tracker's tuning constants each link to a decision record that exists", () => {
    const tuning = readFileSync(join(root, 'src/track/tuning.ts'), 'utf8');
    const constants = [...tuning.matchAll(/^export const (\w+) = /gm)].map((m) => m[1]);
    expect(constants.length).toBeGreaterThanOrEqual(39);
    const links = [...tuning.matchAll(/(docs\/decisions\/\w+\.md#[\w-]+)/g)].map((m) => m[1]);
    expect(links.length).toBe(constants.length);
    expect(brokenLinks('tuning.ts', links)).toEqual([]);
  });

  it('a page per public operator, each with an options table and a tested example', () => {
    const index = readFileSync(join(root, 'index.ts'), 'utf8');
    const operators = ['threshold', 'background', 'morphology', 'label', 'features', 'dots', 'markers', 'pose', 'readResults', 'track', 'countLines', 'zones', 'trails', 'blobTracking', 'fromPixels', 'fromGpuBuffers', 'fromCamera', 'fromVideo'];
    for (const op of operators) {
      expect(index, op).toMatch(new RegExp(`\\b${op}\\b`));
      const page = readFileSync(join(root, 'docs/operators', `${op}.md`), 'utf8');
      expect(page, op).toMatch(/\| option \| default \| unit \| meaning \|/);
      expect(page, op).toMatch(/```ts/);
    }
  });

  it('README.md stays an index: at most 300 lines, no table cell over 300 characters', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const cells = readme.split('\n').filter((l) => l.startsWith('|')).flatMap((l) => l.split(' | '));
    expect(cells.filter((c) => c.length > 300)).toEqual([]);
  });
});
