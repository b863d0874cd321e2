/** The C type model and the MetaABI classifier (pure: no native calls) and the thunk emitter. */
package dev.panamax.core.abi;
