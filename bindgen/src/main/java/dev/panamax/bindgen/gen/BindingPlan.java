package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.ScalarKind;

import java.util.List;
import java.util.Map;

/**
 * What bindgen will write for one declarations file, decided before any text is produced: class
 * names, every function's raw and typed shape, the thunks, and what is skipped and why. The
 * {@link Planner} makes it from a validated {@code Declarations}; the writers only render it.
 *
 * @param sourceName     the declarations file's name (no directories, so output does not depend on where it lives)
 * @param names          the generated classes' names
 * @param libraryNames   names or paths tried in order to load the library
 * @param glueUnit       the C unit of the thunks ({@code pmx_thunks_UNIT.c}); the glue library is
 *                       {@code libpanamax_glue_UNIT.so}
 */
public record BindingPlan(String sourceName, String library, Names names, List<String> libraryNames, String glueUnit,
                          List<ConstantPlan> constants, List<StructPlan> structs, List<HandlePlan> handles,
                          List<CallbackPlan> callbacks, List<ConventionPlan> conventions, List<RawFunction> rawFunctions,
                          List<TypedFunction> typedFunctions, List<ThunkPlan> thunks, List<Skip> skipped) {
    public BindingPlan {
        libraryNames = List.copyOf(libraryNames);
        constants = List.copyOf(constants);
        structs = List.copyOf(structs);
        handles = List.copyOf(handles);
        callbacks = List.copyOf(callbacks);
        conventions = List.copyOf(conventions);
        rawFunctions = List.copyOf(rawFunctions);
        typedFunctions = List.copyOf(typedFunctions);
        thunks = List.copyOf(thunks);
        skipped = List.copyOf(skipped);
    }

    /** The file name of the glue library the build makes from the thunks. */
    public String glueLibraryFile() {
        return "libpanamax_glue_" + glueUnit + ".so";
    }

    /**
     * The generated classes of one library: {@code raw} is the contract's class (one static method per
     * function); {@code typed} the typed layer; {@code exception} the library's exception;
     * {@code thunks} the batchable functions' thunks;
     * {@code byAddress} the package-private downcalls through which the typed layer passes the pointers
     * it makes itself as addresses ({@link TypedFunction#byAddress}).
     */
    public record Names(String javaPackage, String raw, String typed, String exception, String thunks, String byAddress) {
        public String qualified(String simple) {
            return javaPackage + "." + simple;
        }
    }

    /** A constant: its Java type ({@code int}, {@code long} or {@code double}) and literal. */
    public record ConstantPlan(String name, String javaType, String literal) {}

    /** A struct or union class: layout, size and one accessor set per field. */
    public record StructPlan(String declName, String className, boolean union, long size, long align, String layoutExpr,
                             List<FieldPlan> fields) {
        public StructPlan {
            fields = List.copyOf(fields);
        }
    }

    /** One field of a struct class. {@code accessor} is the field name made safe as a Java method name. */
    public record FieldPlan(String declName, String accessor, long offset, FieldKind kind) {}

    /** How a field is read and written. */
    public sealed interface FieldKind {
        /** A scalar read as its Java primitive. */
        record Scalar(ScalarKind kind) implements FieldKind {}
        /** A pointer, handle, callback or string: read as an address. */
        record Address() implements FieldKind {}
        /** A nested struct or union: read as a view of the generated class. */
        record Nested(String className, long size) implements FieldKind {}
        /** {@code T[n]}: a slice, and indexed access when T is a scalar ({@code element} null otherwise). */
        record Array(ScalarKind element, long length, long byteSize) implements FieldKind {}
        /** Bytes Java has no type for (long double): a slice only. */
        record Opaque(long byteSize) implements FieldKind {}
    }

    /**
     * A handle class. {@code retain}/{@code release} are the C symbols (null when there is none);
     * {@code releaseDeclared} says whether the release function is declared in the file (then the raw
     * layer has it, with its status convention {@code releaseStatus}), else it is linked as
     * {@code void release(handle)}. {@code ownable} is false for types that are always borrowed.
     */
    public record HandlePlan(String declName, String className, String retain, boolean retainDeclared, String retainStatus,
                             ScalarKind retainStatusKind, String release, boolean releaseDeclared, String releaseStatus,
                             ScalarKind releaseStatusKind, boolean ownable, boolean ownedByDefault) {}

    /**
     * A callback type: a functional interface of the typed values, a {@code Native} interface of the
     * raw ones, and either a shared registry (void, with a user-data parameter) or stubs per handler.
     */
    public record CallbackPlan(String declName, String className, String returnCarrier, String returnLayout,
                               List<CallbackParam> params, int userDataIndex, String userDataCarrier,
                               TypeDecl.Callback.Calls calls) {
        public CallbackPlan {
            params = List.copyOf(params);
        }

        /** Whether handlers go through a shared {@code CallbackRegistry} (the user data carries their id). */
        public boolean usesRegistry() {
            return userDataIndex >= 0 && returnCarrier.equals("void");
        }
    }

    /**
     * A callback parameter: its raw carrier and layout, and the typed value handed to the handler
     * ({@code handleClass} non-null: a borrowed handle; {@code string}: a Java string).
     */
    public record CallbackParam(String declName, String javaName, String carrier, String layout, String handleClass,
                                boolean string) {
        public String typedType() {
            return handleClass != null ? handleClass : string ? "String" : carrier;
        }
    }

    /** An error convention: the codes that mean success and the names of failures. */
    public record ConventionPlan(String name, ScalarKind type, List<Long> success, Map<Long, String> names) {
        public ConventionPlan {
            success = List.copyOf(success);
            names = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(names));
        }

        /** The exception class's check method for this convention. */
        public String checkMethod() {
            return "check_" + name;
        }
    }

    /** A raw-layer method: the C symbol, its Java carriers and FFM layouts, its tier. */
    public record RawFunction(Function decl, String returnCarrier, String returnLayout, boolean returnsGroup,
                              List<RawParam> params, String tier, String cSignature) {
        public RawFunction {
            params = List.copyOf(params);
        }

        public String name() {
            return decl.name();
        }
    }

    /** A raw parameter: Java name, carrier ({@code int}, {@code MemorySegment}, ...) and layout expression. */
    public record RawParam(String declName, String javaName, String carrier, String layout) {}

    /** A batchable function's thunk: the core model to classify at run time, critical or not, an optional status rule. */
    public record ThunkPlan(String name, CFunction function, boolean critical, String statusRule, List<RecordParam> params) {
        public ThunkPlan {
            params = List.copyOf(params);
        }

        /** The nested class of the thunks class whose {@code record} takes this function's typed arguments. */
        public String recorderClass() {
            return name + "Recorder";
        }
    }

    /**
     * A parameter of a typed recorder: its Java name and type (a handle class, a primitive, or
     * {@code MemorySegment} for pointers, structs and what Java has no type for).
     */
    public record RecordParam(String javaName, String javaType) {}

    /** Something not bound, in one layer, and why. */
    public record Skip(String function, String layer, String reason) {}
}
