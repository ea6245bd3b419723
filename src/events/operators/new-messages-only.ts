import { filter, type MonoTypeOperatorFunction } from 'rxjs';
import { TypeMessage } from '../../model/enums.js';

/** Keeps new messages (code 0); edits (1), deletions (2) and the other codes are dropped. */
export function newMessagesOnly<T extends { code?: TypeMessage }>(): MonoTypeOperatorFunction<T> {
  return filter((message) => (message.code ?? TypeMessage.Chat) === TypeMessage.Chat);
}
