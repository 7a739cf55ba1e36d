/** The client SDK's Node entry (`createNodeClient`), re-exported from packages/client for the server package's root. */
export * from '../../packages/client/src/node.ts';
