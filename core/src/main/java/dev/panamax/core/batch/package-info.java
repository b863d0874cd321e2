/** MetaABI parameter blocks, the uniform thunk call and batched crossings. */
package dev.panamax.core.batch;
