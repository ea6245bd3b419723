/**
 * Permission to change a persistent structure's nodes in place. A node
 * remembers the token it was created under; an update under the same token
 * may reuse it, any other update copies it. The store hands out a fresh
 * token whenever anyone may have kept a reference to the state (a public read,
 * a `state$` subscriber), so a state someone can see never changes, while the
 * updates between two such reads cost no copies.
 */
export type EditToken = { readonly __editToken: true };

export function newEditToken(): EditToken {
  return { __editToken: true };
}
