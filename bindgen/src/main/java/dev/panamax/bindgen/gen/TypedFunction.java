package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.Param;
import dev.panamax.core.abi.ScalarKind;

import java.util.List;

/**
 * One typed-layer method: the raw function it calls, how each C parameter is fed from Java
 * ({@link Mapping}), what it returns and which status it checks. A function with pointers to
 * scalars has two variants: {@link Variant#ARRAYS} (Java arrays, lengths taken from them) and
 * {@link Variant#SEGMENTS} (memory segments, lengths given).
 *
 * @param params      the C parameters in order, each with its mapping
 * @param result      what the Java method returns
 * @param status      the check method of the returned status's convention, or null
 * @param statusKind  the C type of the returned status (how it widens to the check's long), or null
 * @param outs        names of the out-parameters returned as the result (one: the value; several: a record)
 * @param resultRecord the nested record returning several out-parameters, or null
 */
public record TypedFunction(String name, Variant variant, String tier, List<TypedParam> params, Result result,
                            String status, ScalarKind statusKind, List<String> outs, String resultRecord) {
    public TypedFunction {
        params = List.copyOf(params);
        outs = List.copyOf(outs);
    }

    /** Which pointer parameters are Java arrays. */
    public enum Variant { ONLY, ARRAYS, SEGMENTS }

    /**
     * Whether the typed method passes {@code p} to C as a 64-bit address ({@code long}) rather than as a
     * {@link java.lang.foreign.MemorySegment}: so it does for every pointer it makes or owns itself. Scratch
     * memory of its own frame (staged arrays, strings, handle arrays, out-parameters) lives until the
     * method returns; a handle's address is kept valid by the fence after the call; a registered
     * callback's stub and user data are global. The linker's per-argument work for a segment (its
     * session kept alive for the call, its address read) then has nothing to guard. What the caller
     * hands in as memory (a {@code MemorySegment}, a struct, an array passed in place at
     * {@code critical_heap}) stays a segment, so the linker still keeps it alive for the call and
     * refuses memory that is gone.
     */
    public boolean byAddress(TypedParam p) {
        return switch (p.mapping()) {
            case Mapping.HandleValue h -> true;
            case Mapping.CallbackValue cb -> true;
            case Mapping.UserData ud -> ud.carrier().equals("MemorySegment");
            case Mapping.StringIn si -> true;
            case Mapping.StringArray sa -> true;
            case Mapping.HandleArray ha -> true;
            case Mapping.Errcode e -> true;
            case Mapping.ReturnedOut r -> true;
            case Mapping.ScalarArray a -> !heapInPlace() || a.terminated();
            case Mapping.Value v -> false;
            case Mapping.DerivedLength dl -> false;
            case Mapping.StructValue sv -> false;
            case Mapping.StructPointer sp -> false;
            case Mapping.Segment sg -> false;
        };
    }

    /** Whether any parameter is passed as an address: the method then calls the by-address downcall. */
    public boolean callsByAddress() {
        return params.stream().anyMatch(this::byAddress);
    }

    /** Whether the raw handle passes heap memory in place (critical_heap): arrays then need no staging. */
    public boolean heapInPlace() {
        return tier.equals("CRITICAL_HEAP");
    }

    /**
     * A C parameter and how the typed method fills it.
     *
     * @param extent how much memory C reads or writes through this pointer, checked before the call,
     *               or null when the declaration does not say or the typed method already derives it
     */
    public record TypedParam(Param decl, String javaName, Mapping mapping, Extent extent) {
        /** Whether it appears in the Java method's parameter list. */
        public boolean isJavaParameter() {
            return !(mapping instanceof Mapping.DerivedLength || mapping instanceof Mapping.UserData
                    || mapping instanceof Mapping.Errcode || mapping instanceof Mapping.ReturnedOut);
        }
    }

    /**
     * What a pointer's declared {@code length} asks of the memory behind it: {@code count} elements of
     * {@code elementBytes} bytes each.
     *
     * @param count        Java source of the element count as a {@code long} (a parameter, widened as its C type says)
     * @param countName    the C name of the parameter holding the count, for messages
     * @param elementBytes Java source of the bytes of one element
     * @param computed     for a count computed by a length expression, the expression and the parameters it reads
     *                     (its arithmetic is exact and may overflow); null for a count a parameter or number gives
     */
    public record Extent(String count, String countName, String elementBytes, Computed computed) {
        public Extent(String count, String countName, String elementBytes) {
            this(count, countName, elementBytes, null);
        }
    }

    /**
     * A length expression as the typed method's messages show it.
     *
     * @param text  the expression written out ({@code 1 + (n - 1) * abs(incx)})
     * @param reads each parameter it reads: its C name and the Java source of its value as a {@code long}
     */
    public record Computed(String text, List<Read> reads) {
        public Computed {
            reads = List.copyOf(reads);
        }
    }

    /** One parameter a length expression reads: its C name and the Java source of its value. */
    public record Read(String name, String java) {}

    /** How a C parameter is fed from Java. */
    public sealed interface Mapping {
        /** A scalar passed as it is; {@code bool}: a Java {@code boolean} for an integer declared boolean (passed as 1 or 0). */
        record Value(ScalarKind kind, boolean bool) implements Mapping {
            public Value(ScalarKind kind) {
                this(kind, false);
            }
        }
        /**
         * An integer taken from what the caller passes for the pointers named in {@code sources} (all of one length):
         * {@code counts} holds, for each, the Java expression of its count when it is not null ({@code values.length},
         * {@code ArgumentChecks.elements(.., segment, 4)}).
         */
        record DerivedLength(ScalarKind kind, List<String> sources, List<String> counts) implements Mapping {
            public DerivedLength {
                sources = List.copyOf(sources);
                counts = List.copyOf(counts);
            }

            /** Lengths of arrays ({@code name.length}). */
            public DerivedLength(ScalarKind kind, List<String> sources) {
                this(kind, sources, sources.stream().map(s -> s + ".length").toList());
            }
        }
        /** A handle object (its address is passed; kept reachable until the call returns). */
        record HandleValue(String handleClass, boolean nullable) implements Mapping {}
        /** A struct or union by value, from its generated class. */
        record StructValue(String structClass) implements Mapping {}
        /** A pointer to one struct or union, from its generated class. */
        record StructPointer(String structClass, boolean nullable) implements Mapping {}
        /** A Java handler registered in the callback's registry; its id travels in {@code userData}. */
        record CallbackValue(String callbackClass, String userData, boolean nullable, boolean once) implements Mapping {}
        /** The user data of a registered callback parameter: not a Java parameter. */
        record UserData(String callbackParam, String carrier) implements Mapping {}
        /** A Java string passed as a NUL-terminated UTF-8 copy. */
        record StringIn(boolean nullable) implements Mapping {}
        /** A memory segment passed as it is. */
        record Segment(boolean nullable) implements Mapping {}
        /**
         * A Java primitive array for a pointer to scalars; {@code fixed}: the number of elements C uses when
         * no parameter gives it (1 without a {@code length}, N for {@code length: N}), 0 when one does or the
         * list is {@code terminated} (staged with zeros after it, at every tier).
         */
        record ScalarArray(ScalarKind element, Param.Direction direction, boolean nullable, int fixed, boolean terminated)
                implements Mapping {
            public ScalarArray(ScalarKind element, Param.Direction direction, boolean nullable, int fixed) {
                this(element, direction, nullable, fixed, false);
            }
        }
        /** An array of handles: in (addresses passed) or out (filled with new handles); {@code fixed} as for scalars. */
        record HandleArray(String handleClass, Param.Direction direction, boolean nullable, boolean owned, int fixed)
                implements Mapping {}
        /** A Java string array for {@code char**}. */
        record StringArray(boolean nullable) implements Mapping {}
        /** A status out-parameter: checked after the call with {@code checkMethod}; not a Java parameter. */
        record Errcode(String checkMethod, ScalarKind kind) implements Mapping {}
        /** An out-parameter returned as (part of) the result; not a Java parameter. */
        record ReturnedOut(Out out) implements Mapping {}
    }

    /** The value an out-parameter returns. */
    public sealed interface Out {
        String javaType();

        /** A scalar; {@code bool}: an integer declared boolean, returned as {@code value != 0}. */
        record Scalar(ScalarKind kind, boolean bool) implements Out {
            public Scalar(ScalarKind kind) {
                this(kind, false);
            }

            @Override public String javaType() { return bool ? "boolean" : Carriers.primitive(kind); }
        }
        record Handle(String handleClass, boolean owned) implements Out {
            @Override public String javaType() { return handleClass; }
        }
        record Struct(String structClass) implements Out {
            @Override public String javaType() { return structClass; }
        }
        record Address() implements Out {
            @Override public String javaType() { return "MemorySegment"; }
        }
    }

    /** What the typed method returns. */
    public sealed interface Result {
        String javaType();

        record Void() implements Result {
            @Override public String javaType() { return "void"; }
        }
        /** A scalar; {@code bool}: an integer declared boolean, returned as {@code value != 0}. */
        record Scalar(ScalarKind kind, boolean bool) implements Result {
            public Scalar(ScalarKind kind) {
                this(kind, false);
            }

            @Override public String javaType() { return bool ? "boolean" : Carriers.primitive(kind); }
        }
        record Handle(String handleClass, boolean owned) implements Result {
            @Override public String javaType() { return handleClass; }
        }
        record Struct(String structClass) implements Result {
            @Override public String javaType() { return structClass; }
        }
        record CString() implements Result {
            @Override public String javaType() { return "String"; }
        }
        /**
         * A pointer; with a {@code length} (the parameter naming its element count, as declared) it is
         * returned as a segment of {@code length * elementBytes} bytes, NULL as NULL.
         */
        record Address(String length, long elementBytes) implements Result {
            @Override public String javaType() { return "MemorySegment"; }
        }
        /** The out-parameters: one as its value, several as the nested record. */
        record Outs(String javaType) implements Result {}
    }
}
