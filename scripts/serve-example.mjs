// Bundles examples/browser with esbuild and serves it on http://127.0.0.1:PORT (default 8080), for trying the
// browser example by hand: `npm run example:browser`, then open the printed address in a WebGPU browser.
import { build } from 'esbuild';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The example pages and their bundles. `three` names the three.js package the pages are built with (default
 * 'three'; the tests build them with an older release as well, installed as 'three-previous').
 */
export async function exampleFiles({ three = 'three' } = {}) {
  const root = new URL('../', import.meta.url);
  const bundle = await build({
    entryPoints: ['labeling', 'markers', 'track', 'ar', 'board', 'overlay'].map((name) => fileURLToPath(new URL(`examples/browser/${name}.ts`, root))),
    outdir: 'out',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    external: ['webgpu'],
    // The example imports the package by name, as a user would.
    alias: { 'flowmark/three': fileURLToPath(new URL('three.ts', root)), 'flowmark/extend': fileURLToPath(new URL('extend.ts', root)), 'flowmark/reference': fileURLToPath(new URL('reference.ts', root)), flowmark: fileURLToPath(new URL('index.ts', root)), ...(three === 'three' ? {} : { three }) },
  });
  return {
    '/': { body: readFileSync(new URL('examples/browser/index.html', root)), type: 'text/html' },
    '/labeling.js': { body: bundle.outputFiles.find((f) => f.path.endsWith('labeling.js')).contents, type: 'text/javascript' },
    '/markers.html': { body: readFileSync(new URL('examples/browser/markers.html', root)), type: 'text/html' },
    '/markers.js': { body: bundle.outputFiles.find((f) => f.path.endsWith('markers.js')).contents, type: 'text/javascript' },
    '/frame.png': { body: readFileSync(new URL('examples/data/frames/frame-003.png', root)), type: 'image/png' },
    '/track.html': { body: readFileSync(new URL('examples/browser/track.html', root)), type: 'text/html' },
    '/track.js': { body: bundle.outputFiles.find((f) => f.path.endsWith('track.js')).contents, type: 'text/javascript' },
    '/ar.html': { body: readFileSync(new URL('examples/browser/ar.html', root)), type: 'text/html' },
    '/ar.js': { body: bundle.outputFiles.find((f) => f.path.endsWith('/ar.js')).contents, type: 'text/javascript' },
    '/board.html': { body: readFileSync(new URL('examples/browser/board.html', root)), type: 'text/html' },
    '/board.js': { body: bundle.outputFiles.find((f) => f.path.endsWith('/board.js')).contents, type: 'text/javascript' },
    '/overlay.html': { body: readFileSync(new URL('examples/browser/overlay.html', root)), type: 'text/html' },
    '/overlay.js': { body: bundle.outputFiles.find((f) => f.path.endsWith('/overlay.js')).contents, type: 'text/javascript' },
    '/street.mp4': { body: readFileSync(new URL('examples/data/street.mp4', root)), type: 'video/mp4' },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await exampleFiles();
  const port = Number(process.env.PORT ?? 8080);
  createServer((req, res) => {
    const f = files[(req.url ?? '/').split('?')[0]];
    if (!f) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': f.type }).end(f.body);
  }).listen(port, '127.0.0.1', () => console.log(`flowmark browser examples: http://127.0.0.1:${port}/ (labeling), http://127.0.0.1:${port}/markers.html (camera markers), http://127.0.0.1:${port}/track.html (tracking), http://127.0.0.1:${port}/ar.html (three.js AR), http://127.0.0.1:${port}/board.html (an object on a board), http://127.0.0.1:${port}/overlay.html (tracks over the camera, three.js)`));
}
