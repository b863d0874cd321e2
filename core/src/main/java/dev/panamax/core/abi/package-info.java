/** The C type model and the MetaABI classifier (pure: no native calls); the C thunks planned by {@link dev.panamax.core.abi.MetaAbi} are emitted by bindgen. */
package dev.panamax.core.abi;
