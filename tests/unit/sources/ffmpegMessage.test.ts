// ffmpeg's stderr of a truncated MP4 (as ffmpeg 5 prints it) in one line a user reads.
import { describe, expect, it } from 'vitest';
import { ffmpegMessage } from '../../../nodes/sources/ffmpegMessage.js';

const truncated = `[NULL @ 0x563f72380e40] Invalid NAL unit size (280 > 130).
[NULL @ 0x563f72380e40] missing picture in access unit with size 134
[h264 @ 0x563f723a2080] Invalid NAL unit size (280 > 130).
[h264 @ 0x563f723a2080] Error splitting the input into NAL units.
[mov,mp4,m4a,3gp,3g2,mj2 @ 0x563f7237f900] stream 0, offset 0x130cb: partial file
[mov,mp4,m4a,3gp,3g2,mj2 @ 0x563f7237f900] stream 0, offset 0x13180: partial file
Error while decoding stream #0:0: Invalid data found when processing input
[mov,mp4,m4a,3gp,3g2,mj2 @ 0x563f7237f900] stream 0, offset 0x1321f: partial file
[mov,mp4,m4a,3gp,3g2,mj2 @ 0x563f7237f900] stream 0, offset 0x1395e: partial file
`;

describe('ffmpegMessage', () => {
  it('keeps the last two distinct complaints, without addresses or offsets', () => {
    expect(ffmpegMessage(truncated)).toBe('Error while decoding stream #0:0: Invalid data found when processing input; partial file');
  });
  it('gives one line as it is, and nothing for nothing', () => {
    expect(ffmpegMessage('moov atom not found\n')).toBe('moov atom not found');
    expect(ffmpegMessage('  \n')).toBe('');
  });
});
