import { describe, expect, it } from 'vitest';
import { findMentions } from '../../../src/emulator/console/app/mentions.js';

const directory = { users: [{ id: 'u1', username: 'alice' }, { id: 'u2', username: 'bob.k' }], roles: [{ id: 'r1', title: 'Night Shift' }] };

describe('the console finds @mentions in what a person types', () => {
  it('turns known usernames and role titles into mentions with their ranges, and @here into mention-everyone', () => {
    const text = 'hey @alice and @BOB.K, @Night_Shift: @here';
    expect(findMentions(text, directory)).toEqual({
      mentions: [
        { user_id: 'u1', s: 4, e: 10 },
        { user_id: 'u2', s: 15, e: 21 },
        { role_id: 'r1', s: 23, e: 35 },
      ],
      everyone: true,
    });
    expect(text.slice(23, 35)).toBe('@Night_Shift');
  });

  it('leaves unknown names, e-mail addresses and bare @ alone', () => {
    expect(findMentions('mail ann@alice.example or @nobody or @', directory)).toEqual({ mentions: [], everyone: false });
  });
});
