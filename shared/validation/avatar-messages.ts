/**
 * The avatar field's messages (docs/product.md, Limits). A module of their own: the client's messages need them on
 * every page, and the profile rules beside them bring the list of countries (decision 043).
 */
export const AVATAR_MESSAGES = {
  tooBig: 'Your image exceeds the maximum file size of 8MB. Please check your image and upload again.',
  wrongType: 'Your image must be in JPEG, PNG, or GIF format. Please check your image and upload again.',
} as const;
