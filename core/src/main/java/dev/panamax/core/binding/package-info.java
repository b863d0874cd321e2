/**
 * The runtime of generated bindings: what every typed layer that {@code panamax bindgen} writes calls,
 * kept here once instead of in each binding. {@link dev.panamax.core.binding.ArgumentChecks} refuses bad
 * arguments before a native call with the function's and the parameter's name;
 * {@link dev.panamax.core.binding.Staging} turns Java arguments (handles, strings, arrays) into the
 * memory C reads and copies C's results back; {@link dev.panamax.core.binding.Unchecked} rethrows what a
 * method handle declares as {@code Throwable}.
 *
 * <p>Hand-written layers may use them too:
 * <pre>{@code
 * ArgumentChecks.notNull(buffer, "clEnqueueReadBuffer", "buffer");
 * try (ScratchStack.Frame frame = ScratchStack.push()) {
 *     MemorySegment list = Staging.handles(frame, events);   // cl_event[] as addresses
 *     ...
 * }
 * }</pre>
 */
package dev.panamax.core.binding;
