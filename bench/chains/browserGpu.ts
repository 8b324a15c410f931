/**
 * What WebGPU offers in headless Chromium beside Dawn in Node on the same machine: each one's adapter (vendor,
 * architecture, device, description, subgroup sizes, fallback or not), its features and its limits, and the rows where
 * the two differ. `--chromium-gpu vulkan` asks Chromium for the machine's GPU through Vulkan (the flags Chrome's team
 * gives for headless Linux with a GPU), `swiftshader` for its CPU emulation, as the browser tests run it.
 *
 *   node dist/bench/chains/browserGpu.js [--chromium-gpu vulkan|swiftshader] [--chromium-flags="--a --b"] [--json FILE] [--gpu-page FILE]
 *
 * `--gpu-page` writes the text of Chromium's chrome://gpu page (its GPU process's view: driver, what fell back).
 *
 * Chromium is CHROMIUM_PATH or /usr/bin/chromium (on the GPU machine: scripts/device-chromium.sh).
 */
import { writeFileSync } from 'node:fs';
import { defaultDawnFlags } from '../../extend.js';
import { gpuPageText, launchChromium, serve } from '../../tests/support/chromium.js';
import { benchArgs, chromiumOptions } from '../support/args.js';
import { runMain } from '../support/timing.js';

const { values, refuse } = benchArgs(import.meta.url, { 'chromium-gpu': { type: 'string', default: 'vulkan' }, json: { type: 'string' }, 'gpu-page': { type: 'string' }, 'chromium-flags': { type: 'string', default: '' } });
const { gpu: chromiumGpu, flags: extraFlags = [] } = chromiumOptions(values['chromium-gpu'], values['chromium-flags'], refuse);

interface AdapterReport {
  info: Record<string, string | number | boolean>;
  features: string[];
  limits: Record<string, number>;
}

/** An adapter's report; runs in Node and, as its source, in the page (so it names nothing outside itself). */
async function reportOf(gpu: GPU): Promise<AdapterReport | { error: string }> {
  const adapter = (await gpu.requestAdapter({ powerPreference: 'high-performance' })) ?? (await gpu.requestAdapter());
  if (!adapter) {
    const compat = await gpu.requestAdapter({ featureLevel: 'compatibility' } as GPURequestAdapterOptions);
    return { error: `no adapter (high-performance or default); compatibility: ${compat ? (compat.info.description || compat.info.vendor) : 'none'}` };
  }
  const info: Record<string, string | number | boolean> = {};
  for (const key of ['vendor', 'architecture', 'device', 'description', 'subgroupMinSize', 'subgroupMaxSize', 'isFallbackAdapter']) {
    const v = (adapter.info as unknown as Record<string, unknown>)[key];
    if (v !== undefined) info[key] = v as string | number | boolean;
  }
  const limits: Record<string, number> = {};
  for (const key in adapter.limits) limits[key] = (adapter.limits as unknown as Record<string, number>)[key];
  return { info, features: [...adapter.features].map(String).sort(), limits };
}

/** Dawn as flowmark opens it in Node (its default flags). */
async function nodeReport() {
  const { create } = (await import('webgpu')) as { create(flags: string[]): GPU };
  return reportOf(create([...defaultDawnFlags]));
}

async function chromiumReport() {
  const page = `<!doctype html><meta charset="utf-8"><script>globalThis.report = ${reportOf.toString()};</script>`;
  const { url, server } = await serve({ '/': { body: page, type: 'text/html' } });
  const chromium = await launchChromium(extraFlags, chromiumGpu);
  try {
    const tab = await chromium.browser.newPage();
    // Chromium says in the console why requestAdapter() gave no adapter.
    tab.on('console', (m) => console.log(`page console ${m.type()}: ${m.text()}`));
    await tab.goto(url);
    const report = (await tab.evaluate(() => {
      const g = globalThis as unknown as { report(gpu: GPU): Promise<unknown>; navigator: { gpu?: GPU } };
      return g.navigator.gpu ? g.report(g.navigator.gpu) : { error: 'navigator.gpu is undefined' };
    })) as AdapterReport | { error: string };
    if (values['gpu-page']) {
      writeFileSync(String(values['gpu-page']), await gpuPageText(chromium.browser));
    }
    return report;
  } finally {
    await chromium.close();
    server.close();
  }
}

/** Rows `key | node | chromium` for every key whose values differ. */
function differences(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort().filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).map((k) => `| ${k} | ${a[k] ?? '—'} | ${b[k] ?? '—'} |`);
}

async function main(): Promise<void> {
  const node = await nodeReport();
  const browser = await chromiumReport();
  console.log(`WebGPU in Node (Dawn) and in Chromium (--chromium-gpu ${chromiumGpu}), ${new Date().toISOString()}`);
  console.log(`\nNode:     ${JSON.stringify('info' in node ? node.info : node)}`);
  console.log(`Chromium: ${JSON.stringify('info' in browser ? browser.info : browser)}`);
  if ('info' in node && 'info' in browser) {
    const has = (r: AdapterReport) => Object.fromEntries(r.features.map((f) => [f, 'yes']));
    console.log('\n| feature or limit | Node (Dawn) | Chromium |\n|---|---|---|');
    for (const row of [...differences(has(node), has(browser)), ...differences(node.limits, browser.limits)]) console.log(row);
  }
  if (values.json) writeFileSync(String(values.json), JSON.stringify({ node, chromium: browser }, null, 2));
}

runMain(main);
