import { readFragmentIndex, type FragmentIndex } from './fragmentIndex';
import type { MediaFiles } from './mediaFiles';

/** The HLS master playlist's name under `/Media/<videoId>/`: MobilePlayURL once a rung exists. */
export const MASTER_PLAYLIST = 'master.m3u8';

export const PLAYLIST_EXTENSION = '.m3u8';

export const PLAYLIST_CONTENT_TYPE = 'application/vnd.apple.mpegurl';

/** A rung's media playlist: `720p.mp4` is played as `720p.m3u8`. */
export function playlistOf(file: string): string {
  return file.replace(/\.mp4$/, PLAYLIST_EXTENSION);
}

/** Enough for the index of a rung of about an hour and a half (two sidx of 12 bytes per 2 s fragment). */
const FIRST_READ = 64 * 1024;
/** Ten hours of fragments; a bigger head is a file of another layout (a faststart MP4's moov). */
const MAX_INDEX = 1024 * 1024;

/** A rung's index, read from the head of its stored file; undefined when it has none (not a fragmented rung, or gone). */
export async function fragmentIndexOf(files: MediaFiles, videoId: string, file: string): Promise<FragmentIndex | undefined> {
  let bytes = FIRST_READ;
  for (;;) {
    const head = await files.head(videoId, file, bytes);
    if (!head) return undefined;
    const index = readFragmentIndex(head);
    if (!index || !('needBytes' in index)) return index;
    // The file ended before the index did, or the index would be larger than any rung's.
    if (head.length < bytes || index.needBytes > MAX_INDEX) return undefined;
    bytes = index.needBytes;
  }
}

const seconds = (value: number) => value.toFixed(3);

/**
 * The media playlist of one rung: its init segment and fragments as byte ranges of the one MP4
 * (EXT-X-MAP and EXT-X-BYTERANGE need version 6 or more; 7 is the fMP4 one).
 */
export function mediaPlaylist(file: string, index: FragmentIndex): string {
  const longest = Math.max(...index.fragments.map((fragment) => fragment.seconds));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${Math.ceil(longest)}`,
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-MAP:URI="${file}",BYTERANGE="${index.initLength}@0"`,
  ];
  for (const fragment of index.fragments) {
    lines.push(`#EXTINF:${seconds(fragment.seconds)},`, `#EXT-X-BYTERANGE:${fragment.length}@${fragment.offset}`, file);
  }
  lines.push('#EXT-X-ENDLIST', '');
  return lines.join('\n');
}

/** Bits per second of a fragment, the init segment of the first one included (a player fetches both before it plays). */
function fragmentRates(index: FragmentIndex): number[] {
  return index.fragments.map(
    (fragment, position) => ((fragment.length + (position === 0 ? index.initLength : 0)) * 8) / Math.max(fragment.seconds, 0.001),
  );
}

/**
 * The master playlist: one variant per rung, in the order given (best first, as VideoPlayFile),
 * with BANDWIDTH the peak fragment rate and AVERAGE-BANDWIDTH the whole file's, as RFC 8216 asks.
 */
export function masterPlaylist(rungs: readonly { file: string; index: FragmentIndex }[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const { file, index } of rungs) {
    const total = index.fragments.reduce((sum, fragment) => sum + fragment.length, index.initLength);
    const duration = index.fragments.reduce((sum, fragment) => sum + fragment.seconds, 0);
    const attributes = [
      `BANDWIDTH=${Math.ceil(Math.max(...fragmentRates(index)))}`,
      `AVERAGE-BANDWIDTH=${Math.ceil((total * 8) / Math.max(duration, 0.001))}`,
      `RESOLUTION=${index.width}x${index.height}`,
      `CODECS="${index.codecs}"`,
    ];
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, playlistOf(file));
  }
  lines.push('');
  return lines.join('\n');
}
