package dev.panamax.core.call;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The declared shape of a native function: its return layout (empty for void) and its parameters.
 * Array parameters are pointers on the native side and Java arrays on the Java side.
 *
 * <p>The Java method type is the linker's, with arrays in place of their pointers: a function
 * returning a struct by value takes a leading {@link SegmentAllocator} for the result.
 */
public record Signature(Optional<MemoryLayout> returnLayout, List<Param> params) {
    public Signature {
        Objects.requireNonNull(returnLayout, "returnLayout");
        params = List.copyOf(params);
    }

    /** A function returning {@code returnLayout}. */
    public static Signature of(MemoryLayout returnLayout, Param... params) {
        return new Signature(Optional.of(returnLayout), List.of(params));
    }

    /** A function returning void. */
    public static Signature ofVoid(Param... params) {
        return new Signature(Optional.empty(), List.of(params));
    }

    /** The signature of a plain function descriptor: every parameter a value. */
    public static Signature of(FunctionDescriptor descriptor) {
        return new Signature(descriptor.returnLayout(), descriptor.argumentLayouts().stream().map(Param::of).toList());
    }

    /** The descriptor the native linker sees (arrays as {@code ADDRESS}). */
    public FunctionDescriptor nativeDescriptor() {
        MemoryLayout[] args = params.stream().map(Param::nativeLayout).toArray(MemoryLayout[]::new);
        return returnLayout.map(r -> FunctionDescriptor.of(r, args)).orElseGet(() -> FunctionDescriptor.ofVoid(args));
    }

    /** Whether the function returns a struct or union by value (and so takes a leading allocator). */
    public boolean returnsGroup() {
        return returnLayout.filter(GroupLayout.class::isInstance).isPresent();
    }

    /** Where parameter 0 sits in the method handle: 1 when a leading allocator comes first, else 0. */
    public int firstParamPosition() {
        return returnsGroup() ? 1 : 0;
    }

    /** The type of the method handle that calls this function from Java. */
    public MethodType javaType() {
        List<Class<?>> types = new ArrayList<>();
        if (returnsGroup()) types.add(SegmentAllocator.class);
        for (Param p : params) types.add(p.javaType());
        Class<?> ret = returnLayout.map(Signature::carrier).orElse(void.class);
        return MethodType.methodType(ret, types);
    }

    private static Class<?> carrier(MemoryLayout layout) {
        return layout instanceof ValueLayout v ? v.carrier() : MemorySegment.class;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < params.size(); i++) {
            if (i > 0) b.append(", ");
            b.append(switch (params.get(i)) {
                case Param.Value v -> v.layout().toString();
                case Param.Array a -> a.direction().name().toLowerCase(java.util.Locale.ROOT) + " " + a.type().arrayClass().getSimpleName();
            });
        }
        return b.append(")").append(returnLayout.map(MemoryLayout::toString).orElse("void")).toString();
    }
}
