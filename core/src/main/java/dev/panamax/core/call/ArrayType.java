package dev.panamax.core.call;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/** The Java primitive arrays that can be passed where native code expects a pointer to elements. */
public enum ArrayType {
    BYTE(byte[].class, ValueLayout.JAVA_BYTE),
    SHORT(short[].class, ValueLayout.JAVA_SHORT),
    CHAR(char[].class, ValueLayout.JAVA_CHAR),
    INT(int[].class, ValueLayout.JAVA_INT),
    LONG(long[].class, ValueLayout.JAVA_LONG),
    FLOAT(float[].class, ValueLayout.JAVA_FLOAT),
    DOUBLE(double[].class, ValueLayout.JAVA_DOUBLE);

    private final Class<?> arrayClass;
    private final ValueLayout elementLayout;

    ArrayType(Class<?> arrayClass, ValueLayout elementLayout) {
        this.arrayClass = arrayClass;
        this.elementLayout = elementLayout;
    }

    /** The Java array class, e.g. {@code float[].class}. */
    public Class<?> arrayClass() {
        return arrayClass;
    }

    /** The layout of one element in native memory, e.g. {@code JAVA_FLOAT}. */
    public ValueLayout elementLayout() {
        return elementLayout;
    }

    /**
     * The array type for a Java array class.
     *
     * @throws IllegalArgumentException for anything but byte[], short[], char[], int[], long[], float[] and double[]
     */
    public static ArrayType of(Class<?> arrayClass) {
        for (ArrayType t : values()) {
            if (t.arrayClass == arrayClass) return t;
        }
        throw new IllegalArgumentException("not a passable array type: class=" + arrayClass.getTypeName()
                + " expected one of " + Arrays.stream(values()).map(t -> t.arrayClass.getTypeName()).toList());
    }
}
