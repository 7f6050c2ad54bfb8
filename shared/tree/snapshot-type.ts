/**
 * The media type an HTTP client names in Accept to be sent the tree snapshot's binary form (decision 050); the JSON
 * form answers everyone else. On its own so the app's entry, which asks for the snapshot early, can name it without
 * loading the decoder.
 */
export const SNAPSHOT_BINARY_TYPE = 'application/vnd.gallery.tree-snapshot';
