// The same threshold → label pipeline, one-labeling features and markers() in headless Chromium (WebGPU on
// SwiftShader), equal to the CPU references.
import { describe, expect, it } from 'vitest';
import { callInPage, pageFiles } from '../support/chromium.js';
import { chromiumSession } from '../support/chromiumSession.js';
import type { BrowserSummary } from './page.js';

const session = chromiumSession(async () => ({ files: await pageFiles(new URL('./page.ts', import.meta.url)) }));

describe('in headless Chromium', () => {
  it('labels (every algorithm), features, thresholds, morphology, background, markers and dots like the CPU reference, on WebGPU', async () => {
    const { result: summary, errors } = await callInPage<BrowserSummary>(session.browser, session.url, 'runFlowmarkTests');
    expect(errors).toEqual([]);
    expect(summary.failures).toEqual([]);
    expect(summary.labelChecks).toBeGreaterThanOrEqual(6 * 2 * 100); // every algorithm, both connectivities
    expect(summary.featureChecks).toBeGreaterThanOrEqual(2 * 100);
    expect(summary.thresholdChecks).toBe(6);
    expect(summary.markerChecks).toBe(6); // three markers in each of two scenes, as the CPU reference finds them
    expect(summary.dotChecks).toBe(9); // the scene's nine discs and ellipses (its three squares are not dots)
    expect(summary.morphologyChecks).toBe(3);
    expect(summary.backgroundChecks).toBe(24);
    expect(summary.inUseAfter).toBe(0);
    console.log(`chromium adapter: ${summary.adapter} (fallback ${summary.fallback}, subgroups ${summary.subgroups})`);
  });
});
