package dev.panamax.spark;

import dev.panamax.tensor.nn.Module;

import java.io.Serializable;
import java.util.random.RandomGenerator;

/**
 * Builds a model's architecture on an executor. A checkpoint holds weights, not code, so every
 * executor rebuilds the module from this (serialized with the job: a record such as {@link Mlp},
 * or a serializable lambda of a class the executors have on their class path) and then copies the
 * weights into it. The initial weights it draws from {@code rng} matter only on the driver, where
 * training starts from them; executors overwrite them.
 *
 * <pre>{@code
 * ModuleFactory spiralNet = new Mlp(2, List.of(64), 3);
 * ModuleFactory custom = (ModuleFactory & Serializable) rng ->
 *         new Sequential(new Linear(4, 16, rng), new Tanh(), new Linear(16, 2, rng));
 * }</pre>
 */
@FunctionalInterface
public interface ModuleFactory extends Serializable {
    /** A new module of this architecture, its parameters initialised from {@code rng}. */
    Module create(RandomGenerator rng);
}
