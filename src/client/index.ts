/**
 * The client SDK, as the server package has always exported it (`rtserve/client`): the client is its own package,
 * packages/client (`@rtserve/client`, docs/client-sdk.md), and this entry re-exports its browser entry unchanged.
 */
export * from '../../packages/client/src/index.ts';
