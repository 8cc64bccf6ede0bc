import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceWorld, type ServiceWorld } from '../../e2e/support/world';
import { until, type Engine } from './engine';
import { PLAYBACK_REPORT, playScript, processMatrix, SHAPES, type Matrix, type Playback } from './playbackMatrix';

/** What the playback check needs of a browser: Chromium through Playwright fits it as well as an {@link Engine}. */
type Player = Pick<Engine, 'open' | 'evaluate' | 'quit'>;

export interface PlayerSpec {
  name: string;
  launch: () => Promise<Player>;
  /** Whether its getVideoPlaybackQuality counts the frames it shows (WebKitGTK under xvfb counts none). */
  countsFrames: boolean;
}

/**
 * A player's duration against ffprobe's source: an encoded rung's sound may end up to an AAC
 * frame past its picture (the encoder's padding), and WebKitGTK counts in the priming samples
 * that the rung's edit list drops as well.
 */
const DURATION_TOLERANCE_S = 0.15;

/**
 * The first play file (PlayURL at status 1) of every shape in the matrix plays in each player,
 * after the rest of the ladder has landed: no media error, the source's duration from its
 * metadata on, its picture the right way up, and on to the end after a seek. The matrix is processed once; each player is one browser session for all of it.
 */
export function playbackSuite(players: readonly PlayerSpec[]): void {
  let world: ServiceWorld;
  let matrix: Matrix;

  beforeAll(async () => {
    world = await startServiceWorld();
    matrix = await processMatrix(world.service);
  }, 240_000);
  afterAll(async () => {
    await world?.stop();
    matrix?.remove();
  });

  describe.each(players)('in $name', ({ launch, countsFrames }) => {
    let player: Player;
    beforeAll(async () => {
      player = await launch();
      await player.open(`${world.host.origin}/blank.html`);
    });
    afterAll(async () => {
      await player?.quit();
    });

    it.each(SHAPES.map((shape, index) => [shape.name, index] as const))(
      '%s: the first play file plays to its end, upright',
      async (_shape, index) => {
        const file = matrix.files[index]!;
        expect(file.label === 'Original', `first play file ${file.label}`).toBe(file.remuxed);
        // Played once the ladder is complete: a remux is no longer listed, and its URL still plays.
        expect(file.listed).toBe(!file.remuxed);
        await player.evaluate(playScript(file.url));
        const played = await until(
          'the video ended or failed',
          () => player.evaluate<Playback | null>(PLAYBACK_REPORT).then((report) => report ?? undefined),
          30_000,
        );
        const seen = JSON.stringify(played);
        expect(played.error, seen).toBeUndefined();
        expect(played.ended, seen).toBe(true);
        // Known at loadedmetadata, before the fragments are read: a rung states its length in its moov's mehd, as a remux in its mvhd.
        expect(Math.abs(played.duration! - file.duration), `${seen} against ${file.duration}`).toBeLessThan(DURATION_TOLERANCE_S);
        expect(Math.abs(played.endDuration! - file.duration), `${seen} against ${file.duration}`).toBeLessThan(DURATION_TOLERANCE_S);
        expect(played.width! / played.height!, seen).toBeCloseTo(file.aspect, 1);
        if (countsFrames) expect(played.frames, seen).toBeGreaterThan(0);
      },
    );
  });
}
