import { ClosedError } from '../errors/closed-error.js';
import { nameErrorClass } from '../errors/error-name.js';

/**
 * The message a collector or an await was watching was deleted, so no more
 * interactions can come. A {@link ClosedError} (kind `closed`): the operation
 * ended before it could finish.
 */
export class MessageDeletedError extends ClosedError {
  static {
    nameErrorClass(this, 'MessageDeletedError');
  }

  readonly messageId: string;

  constructor(operation: string, messageId: string) {
    super(operation, `message ${messageId} was deleted`);
    this.messageId = messageId;
  }
}
