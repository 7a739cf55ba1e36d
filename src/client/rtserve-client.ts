/** Moved to the client package (packages/client, `@rtserve/client`); this path keeps older imports working. */
export * from '../../packages/client/src/rtserve-client.ts';
