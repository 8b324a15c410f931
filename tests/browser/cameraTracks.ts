// In the page: every camera track getUserMedia hands out from now on, to check that whoever opened it stopped it.

/** Starts watching; the function returned counts the tracks still live (99 where none was opened: nothing checked). */
export function watchCameraTracks(): () => number {
  const tracks = new Set<MediaStreamTrack>();
  const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (c) => {
    const s = await getUserMedia(c);
    s.getTracks().forEach((t) => tracks.add(t));
    return s;
  };
  return () => [...tracks].filter((t) => t.readyState === 'live').length + (tracks.size === 0 ? 99 : 0);
}
