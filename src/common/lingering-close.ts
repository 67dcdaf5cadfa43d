import type { Request, Response } from 'express';

/** After an answer to a body that was not read to its end: how long the rest may still be read and discarded. */
export const LINGER_MS = 2_000;
/** ...and how many bytes of it: beyond either bound, the connection is closed under the client. */
export const LINGER_BYTES = 4 * 1024 * 1024;

/**
 * Answers `request` on a connection that is then closed, without resetting it under a client
 * that is still sending its body. Closing a socket with unread bytes resets it (RST), and the
 * client then sees the reset, often before it has read the answer. So what the client still
 * sends is read and discarded, and after the answer the server ends its side and keeps doing so
 * until the client ends its own, for LINGER_MS and LINGER_BYTES at most (a lingering close, as
 * nginx and Apache do); then the connection is closed.
 */
export function closeAfterAnswer(request: Request, response: Response): void {
  response.setHeader('Connection', 'close');
  const { socket } = request;
  let discarded = 0;
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) socket.destroy();
  });
  request.resume();
  // Node's HTTP server ends a `Connection: close` exchange with destroySoon(): destroy as soon as
  // its own side is ended. Here the destroy waits for the client's end, or for LINGER_MS.
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
  };
}
