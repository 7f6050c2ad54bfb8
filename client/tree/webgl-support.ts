/**
 * Whether this browser can draw the tree at all. Only a cheap look at the platform: opening a throwaway WebGL
 * context to be sure costs from 30 to 300 ms on a software renderer, and PixiJS makes its own check anyway (falling
 * back to a 2D canvas where WebGL is blocked), so the page asks no more than whether any canvas API exists.
 */
export function canDrawTree(): boolean {
  return typeof window !== 'undefined' && ('WebGLRenderingContext' in window || 'CanvasRenderingContext2D' in window);
}
