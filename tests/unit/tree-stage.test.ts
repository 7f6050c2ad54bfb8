/**
 * The trees the engine holds (client/tree/engine/tree-stage.ts): the live one, and the growth replay's while it is
 * on. Which one is on screen, which is set aside (its layers hidden and its chunks given back), and which is
 * destroyed, through a replay's start, its end (now: the live tree in its place), a new snapshot meanwhile, and
 * its close. The trees are real canvas trees of real PixiJS containers.
 */
import { describe, expect, it } from 'vitest';
import { Container } from 'pixi.js';
import { CellStatus, CellType } from '#shared/domain.ts';
import { CELL_PITCH } from '#shared/tree/camera.ts';
import { DEFAULT_TREE_SETTINGS as S } from '#shared/tree/geometry.ts';
import { decodeSnapshot, encodeSnapshot, type SnapshotCell } from '#shared/tree/snapshot.ts';
import { CanvasTree } from '#client/tree/engine/canvas-tree.ts';
import { TexturePool, ThumbnailCache } from '#client/tree/engine/thumbnails.ts';
import { TreeStage } from '#client/tree/engine/tree-stage.ts';

const world = new Container();
const overlay = new Container();
const thumbnails = new ThumbnailCache(new TexturePool({ load: () => new Promise(() => {}), unload: async () => {} }));

function tree(): CanvasTree {
  const cells: SnapshotCell[] = [];
  for (let row = 30; row < 45; row++)
    for (let column = 0; column < S.trunk.columns; column++)
      cells.push({
        row,
        column,
        status: CellStatus.Published,
        type: CellType.Trunk,
        color: 0x336699,
        token: `t${row}-${column}`.padEnd(22, 'x'),
        thumb: null,
      });
  const decoded = decodeSnapshot(encodeSnapshot({ token: 'tree-token-0123456789', version: 1, settings: S }, cells));
  const made = new CanvasTree(decoded, S, [], null, {
    world,
    overlay,
    thumbnails,
    onChange: () => {},
    onRegion: () => {},
  });
  // Some chunks built, as on screen.
  made.chunks.cull({ x: 0, y: 30 * CELL_PITCH, width: 1000, height: 1000 }, false);
  made.chunks.buildSome();
  return made;
}

const onScreen = (t: CanvasTree) => t.chunks.layer.visible && t.bands.strips.visible && t.bands.labels.visible;
const setAside = (t: CanvasTree) => !onScreen(t) && t.chunks.builtCount === 0;
const destroyed = (t: CanvasTree) => t.chunks.layer.destroyed && t.bands.strips.destroyed;

describe('the tree stage', () => {
  it('shows the first live tree, and a newer one in its place (the old one destroyed)', () => {
    const stage = new TreeStage();
    expect(stage.shown).toBeNull();
    const first = tree();
    expect(stage.setLive(first)).toBe(true);
    expect(stage.shown).toBe(first);
    const second = tree();
    expect(stage.setLive(second)).toBe(true);
    expect(destroyed(first)).toBe(true);
    expect([stage.shown, stage.live, stage.replay, stage.replaying]).toEqual([second, second, null, false]);
  });

  it('a replay goes on screen and the live tree is set aside until the replay ends', () => {
    const stage = new TreeStage();
    const live = tree();
    stage.setLive(live);
    const replay = tree();
    stage.showReplay(replay);
    expect([stage.shown, stage.live, stage.replay, stage.replaying]).toEqual([replay, live, replay, true]);
    expect(setAside(live)).toBe(true);
    expect(stage.endReplay()).toBe(true);
    expect(destroyed(replay)).toBe(true);
    expect([stage.shown, stage.replaying]).toEqual([live, false]);
    expect(onScreen(live)).toBe(true);
    expect(stage.endReplay()).toBe(false);
  });

  it('at the replay’s end (now) shows the live tree in its place, and the replay’s again when it leaves the end', () => {
    const stage = new TreeStage();
    const live = tree();
    stage.setLive(live);
    const replay = tree();
    stage.showReplay(replay);
    expect(stage.showLiveInReplay(true)).toBe(true);
    expect(stage.shown).toBe(live);
    expect(onScreen(live)).toBe(true);
    expect(setAside(replay)).toBe(true);
    expect(stage.showLiveInReplay(true)).toBe(false);
    expect(stage.showLiveInReplay(false)).toBe(true);
    expect(stage.shown).toBe(replay);
    expect(setAside(live)).toBe(true);
    // Ended at its end, the live tree simply stays.
    stage.showLiveInReplay(true);
    stage.endReplay();
    expect(stage.shown).toBe(live);
    expect(onScreen(live)).toBe(true);
  });

  it('a snapshot arriving during the replay waits behind it, and shows when the replay ends', () => {
    const stage = new TreeStage();
    const live = tree();
    stage.setLive(live);
    const replay = tree();
    stage.showReplay(replay);
    const newer = tree();
    expect(stage.setLive(newer)).toBe(false);
    expect(destroyed(live)).toBe(true);
    expect([stage.shown, stage.live]).toEqual([replay, newer]);
    expect(setAside(newer)).toBe(true);
    stage.endReplay();
    expect(stage.shown).toBe(newer);
    expect(onScreen(newer)).toBe(true);
  });

  it('a snapshot arriving at the replay’s end goes on screen at once', () => {
    const stage = new TreeStage();
    stage.setLive(tree());
    stage.showReplay(tree());
    stage.showLiveInReplay(true);
    const newer = tree();
    expect(stage.setLive(newer)).toBe(true);
    expect(stage.shown).toBe(newer);
  });

  it('a second replay replaces the first; clear destroys every tree', () => {
    const stage = new TreeStage();
    const live = tree();
    stage.setLive(live);
    const first = tree();
    stage.showReplay(first);
    const second = tree();
    stage.showReplay(second);
    expect(destroyed(first)).toBe(true);
    expect(stage.shown).toBe(second);
    stage.clear();
    expect(destroyed(live) && destroyed(second)).toBe(true);
    expect([stage.shown, stage.live, stage.replay, stage.replaying]).toEqual([null, null, null, false]);
  });
});
