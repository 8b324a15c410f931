// Options checked before anything runs: an object or nothing, only known keys (the nearest suggested), booleans that
// are booleans, and options that contradict each other refused, each with an InvalidOptionError naming the operator.
// The operators are made, never subscribed: no GPU is needed.
import { describe, expect, it } from 'vitest';
import { GpuContext, GpuUnavailableError, InvalidOptionError, background, blobFeatures, countLines, readResults, trails, zones, blobTracking, cameraPrime, dots, features, fromCamera, fromGpuBuffers, fromPixels, fromVideo, label, markers, morphology, pose, threshold, track, videoBackground, videoHasColor } from '../../../index.js';
import { fromImages, fromVideoFile, probeVideoFile, readImage, videoFileBackground, videoFileHasColor } from '../../../node.js';

const refused = (make: () => unknown, message: RegExp) => {
  let e: unknown;
  try {
    make();
  } catch (err) {
    e = err;
  }
  expect(e, String(message)).toBeInstanceOf(InvalidOptionError);
  expect((e as Error).message).toMatch(message);
};
// Plain JavaScript: what TypeScript would have caught.
const loose = (o: unknown) => o as never;

describe('operator options', () => {
  it('refuses unknown keys, suggesting the nearest', () => {
    refused(() => features(loose({ minarea: 20 })), /^features: unknown option minarea \(did you mean minArea\?\); the options are minArea, /);
    refused(() => label(loose({ conectivity: 4 })), /^label: unknown option conectivity \(did you mean connectivity\?\)/);
    refused(() => threshold(loose({ levl: 9 })), /^threshold: unknown option levl \(did you mean level\?\)/);
    refused(() => markers(loose({ dictionary: 'DICT_4X4_50', windws: [9] })), /^markers: unknown option windws \(did you mean windows\?\)/);
    refused(() => features(loose({ colour: true })), /^features: unknown option colour; the options are/);
    // An unknown key is refused whatever its value: undefined hides a misspelling as well as any.
    refused(() => features(loose({ minarea: undefined })), /^features: unknown option minarea \(did you mean minArea\?\)/);
    refused(() => track(loose({ maxUnseens: 2 })), /^track: unknown option maxUnseens \(did you mean maxUnseen\?\)/);
    refused(() => background(loose({ histroy: 200 })), /^background: unknown option histroy \(did you mean history\?\)/);
    refused(() => morphology(loose({ open: 3, clse: 5 })), /^morphology: unknown option clse \(did you mean close\?\)/);
    refused(() => dots(loose({ maxside: 9 })), /^dots: unknown option maxside \(did you mean maxSide\?\)/);
    refused(() => pose(loose({ camera: { fx: 500, fy: 500, cx: 320, cy: 240 }, markerSize: 0.05, smothing: false })), /^pose: unknown option smothing \(did you mean smoothing\?\)/);
  });

  it('refuses options that are not an object, and booleans that are not booleans', () => {
    refused(() => threshold(loose(null)), /^threshold: options must be an object, got null/);
    refused(() => features(loose('minArea')), /^features: options must be an object, got string/);
    refused(() => label(loose({ canonical: 'no' })), /^label: canonical must be true or false, got "no"/);
    refused(() => features(loose({ dropBorder: 'yes' })), /^features: dropBorder must be true or false, got "yes"/);
  });

  it('refuses options that contradict each other', () => {
    refused(() => threshold(loose({ method: 'otsu', level: 50 })), /^threshold: level applies to method 'fixed' only, not 'otsu'/);
    refused(() => threshold(loose({ method: 'fixed', window: 15 })), /^threshold: window applies to method 'adaptive' only/);
    refused(() => label({ algorithm: 'c2fl', passes: 4 }), /^label: passes applies to algorithm 'shibata' only, not 'c2fl'/);
    refused(() => features({ minArea: 10, maxArea: 5 }), /^features: minArea 10 is above maxArea 5/);
    refused(() => features({ minSide: 9, maxSide: 3 }), /^features: minSide 9 is above maxSide 3/);
    refused(() => markers(loose({})), /^markers: dictionary is required/);
  });

  it('takes what is right: known keys left undefined count as absent, and until-converged with any algorithm', () => {
    expect(() => features({ minArea: undefined, maxArea: 5, dropBorder: false })).not.toThrow();
    expect(() => label({ algorithm: 'c2fl', passes: 'until-converged', canonical: false })).not.toThrow();
    expect(() => threshold({ method: 'adaptive', window: 15, offset: 3 })).not.toThrow();
    expect(() => markers({ dictionary: 'DICT_4X4_50', windows: [31] })).not.toThrow();
  });
});

describe('sources, GpuContext.create and blobTracking options', () => {
  const ctx = loose(null); // never reached: the options are checked first
  const rejected = async (run: () => Promise<unknown>, message: RegExp) => {
    const e = await run().then(() => null, (err: unknown) => err);
    expect(e, String(message)).toBeInstanceOf(InvalidOptionError);
    expect((e as Error).message).toMatch(message);
  };

  it('refuse unknown keys, suggesting the nearest', async () => {
    refused(() => fromPixels(ctx, [], loose({ maxInflight: 2 })), /^fromPixels: unknown option maxInflight \(did you mean maxInFlight\?\)/);
    refused(() => fromGpuBuffers(ctx, [], loose({ inFlight: 2 })), /^fromGpuBuffers: unknown option inFlight/);
    refused(() => fromVideoFile(ctx, 'a.mp4', loose({ formt: 'rgba' })), /^fromVideoFile: unknown option formt \(did you mean format\?\)/);
    refused(() => fromImages(ctx, [], loose({ fpss: 10 })), /^fromImages: unknown option fpss \(did you mean fps\?\)/);
    refused(() => fromVideo(ctx, 'a.mp4', loose({ pacng: 'realtime' })), /^fromVideo: unknown option pacng \(did you mean pacing\?\)/);
    refused(() => fromCamera(ctx, loose({ constraint: {} })), /^fromCamera: unknown option constraint \(did you mean constraints\?\)/);
    refused(() => videoFileBackground('a.mp4', loose({ second: 2 })), /^videoFileBackground: unknown option second \(did you mean seconds\?\)/);
    refused(() => videoBackground('a.mp4', loose({ sample: 9 })), /^videoBackground: unknown option sample \(did you mean samples\?\)/);
    refused(() => videoFileHasColor('a.mp4', loose({ frame: 9 })), /^videoFileHasColor: unknown option frame \(did you mean frames\?\)/);
    refused(() => videoHasColor('a.mp4', loose({ shares: 0.1 })), /^videoHasColor: unknown option shares \(did you mean share\?\)/);
    refused(() => cameraPrime(loose({ second: 2 })), /^cameraPrime: unknown option second \(did you mean seconds\?\)/);
    await rejected(() => probeVideoFile('a.mp4', loose({ ffmpeg: 'x' })), /^probeVideoFile: unknown option ffmpeg/);
    await rejected(() => readImage('a.png', loose({ maxPixel: 9 })), /^readImage: unknown option maxPixel \(did you mean maxPixels\?\)/);
    await rejected(() => GpuContext.create(loose({ poolFreeByte: 0 })), /^GpuContext.create: unknown option poolFreeByte \(did you mean poolFreeBytes\?\)/);
    await rejected(() => GpuContext.create(loose({ profile: 'yes' })), /^GpuContext.create: profile must be true or false/);
    refused(() => blobTracking(loose({ lines: [], maxUnseen: 2, minarea: 30 })), /^blobTracking: unknown option minarea \(did you mean minArea\?\)/);
    refused(() => blobFeatures(loose({ histroy: 30 })), /^blobFeatures: unknown option histroy \(did you mean history\?\)/);
    refused(() => readResults(loose({ framesPerSumbit: 2 })), /^readResults: unknown option framesPerSumbit \(did you mean framesPerSubmit\?\)/);
    refused(() => countLines(loose({ line: [] })), /^countLines: unknown option line \(did you mean lines\?\)/);
    refused(() => zones(loose({ zone: [] })), /^zones: unknown option zone \(did you mean zones\?\)/);
    refused(() => trails(loose({ lenght: 9 })), /^trails: unknown option lenght \(did you mean length\?\)/);
    refused(() => trails(loose(null)), /^trails: options must be an object, got null/);
  });

  it('blobTracking: maxUnseen required, the measured defaults for the rest (no counting lines)', () => {
    refused(() => blobTracking(loose({ lines: [] })), /^blobTracking: maxUnseen .* is required/);
    refused(() => blobTracking(loose(undefined)), /^blobTracking: options are required/);
    refused(() => blobFeatures({ history: 0 }), /^blobFeatures: history must be a number of frames, 1 or more, got 0/);
    expect(() => blobTracking({ maxUnseen: 2 })).not.toThrow();
    expect(() => blobFeatures()).not.toThrow();
  });
});

describe('GpuContext.create without an adapter', () => {
  it('says what to install, not a command of this repository', async () => {
    const gpu = { requestAdapter: async () => null } as unknown as GPU;
    const e = await GpuContext.create({ gpu }).then(() => null, (err: unknown) => err);
    expect(e).toBeInstanceOf(GpuUnavailableError);
    expect((e as Error).message).toMatch(/apt-get install mesa-vulkan-drivers/);
    expect((e as Error).message).not.toMatch(/npm test/);
  });
});
