package dev.panamax.core.call;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * One parameter of a declared native function: a value passed as its layout says, or a Java
 * primitive array passed where the C side takes a pointer to its elements.
 *
 * <pre>{@code
 * lib.function("scale").params(Param.inout(float[].class), Param.of(JAVA_LONG), Param.of(JAVA_FLOAT))
 * }</pre>
 */
public sealed interface Param {
    /** A value parameter: what the linker passes for {@code layout} (a primitive, a pointer or a struct by value). */
    record Value(MemoryLayout layout) implements Param {
        public Value {
            Objects.requireNonNull(layout, "layout");
        }

        @Override
        public MemoryLayout nativeLayout() {
            return layout;
        }

        @Override
        public Class<?> javaType() {
            return layout instanceof ValueLayout v ? v.carrier() : java.lang.foreign.MemorySegment.class;
        }
    }

    /**
     * A Java array parameter, passed to native code as a pointer to its first element: in place at a
     * tier that {@linkplain Tier#acceptsHeapMemory() accepts heap memory}, staged through the
     * {@link ScratchStack} at the others. A {@code null} array is passed as a NULL pointer.
     */
    record Array(ArrayType type, Direction direction) implements Param {
        public Array {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(direction, "direction");
        }

        @Override
        public MemoryLayout nativeLayout() {
            return ValueLayout.ADDRESS;
        }

        @Override
        public Class<?> javaType() {
            return type.arrayClass();
        }
    }

    /** The layout the native function sees. */
    MemoryLayout nativeLayout();

    /** The type of this parameter in the Java method handle. */
    Class<?> javaType();

    /** A value parameter of this layout. */
    static Param of(MemoryLayout layout) {
        return new Value(layout);
    }

    /** An array the native code reads. */
    static Param in(Class<?> arrayClass) {
        return new Array(ArrayType.of(arrayClass), Direction.IN);
    }

    /** An array the native code writes. */
    static Param out(Class<?> arrayClass) {
        return new Array(ArrayType.of(arrayClass), Direction.OUT);
    }

    /** An array the native code reads and writes. */
    static Param inout(Class<?> arrayClass) {
        return new Array(ArrayType.of(arrayClass), Direction.INOUT);
    }
}
