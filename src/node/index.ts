// Node-only entry point (`flowmark/node`): file sources that need node:fs.
export { readPng } from './readPng.js';
export { fromPng } from './fromPng.js';
export { fromVideo, probeVideo, type FromVideoOptions } from './fromVideo.js';
