/** A problem that stops start-up, told to the operator as one line (no stack trace). */
export class StartupError extends Error {
  override name = 'StartupError';
}
