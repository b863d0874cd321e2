package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.Constant;
import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.ErrorConvention;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.Location;
import dev.panamax.bindgen.decl.Param;
import dev.panamax.bindgen.decl.Returns;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.decl.TypeRef;
import dev.panamax.bindgen.decl.TypeRefs;
import dev.panamax.bindgen.gen.BindingPlan.CallbackParam;
import dev.panamax.bindgen.gen.BindingPlan.CallbackPlan;
import dev.panamax.bindgen.gen.BindingPlan.ConstantPlan;
import dev.panamax.bindgen.gen.BindingPlan.ConventionPlan;
import dev.panamax.bindgen.gen.BindingPlan.FieldKind;
import dev.panamax.bindgen.gen.BindingPlan.FieldPlan;
import dev.panamax.bindgen.gen.BindingPlan.HandlePlan;
import dev.panamax.bindgen.gen.BindingPlan.RawFunction;
import dev.panamax.bindgen.gen.BindingPlan.RawParam;
import dev.panamax.bindgen.gen.BindingPlan.RecordParam;
import dev.panamax.bindgen.gen.BindingPlan.Skip;
import dev.panamax.bindgen.gen.BindingPlan.StructPlan;
import dev.panamax.bindgen.gen.BindingPlan.ThunkPlan;
import dev.panamax.bindgen.gen.TypedFunction.Mapping;
import dev.panamax.bindgen.gen.TypedFunction.Out;
import dev.panamax.bindgen.gen.TypedFunction.Result;
import dev.panamax.bindgen.gen.TypedFunction.TypedParam;
import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.FfmLayouts;
import dev.panamax.core.abi.ScalarKind;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The plan step: a validated {@link Declarations} in, a {@link BindingPlan} out, no text written.
 * Decides every generated name (and refuses files whose names would clash in Java), the raw
 * carriers and layouts of each function, how each parameter of the typed layer is fed, and what is
 * skipped. Problems are {@link DeclarationsException}s at the place in the file that causes them.
 */
public final class Planner {
    /** Members of a struct class a field accessor must not take. */
    private static final Set<String> STRUCT_MEMBERS = Set.of("LAYOUT", "SIZE", "segment", "allocate", "wrap", "toString",
            "hashCode", "equals", "getClass", "notify", "notifyAll", "wait", "clone", "finalize");

    private final Declarations d;
    private final Map<String, TypeDecl> types;
    private final Map<String, String> classOf = new LinkedHashMap<>();          // declared type name -> Java class
    private final Map<String, CallbackPlan> callbacks = new LinkedHashMap<>();
    private final List<Skip> skipped = new ArrayList<>();
    private final Set<String> reserved = new java.util.HashSet<>(JavaNames.RESERVED_CLASS_NAMES);
    private BindingPlan.Names names;

    private Planner(Declarations d) {
        this.d = d;
        this.types = d.types();
    }

    /** Plans the bindings of {@code d}. */
    public static BindingPlan plan(Declarations d) {
        return new Planner(d).plan();
    }

    private BindingPlan plan() {
        names = names();
        List<ConstantPlan> constants = constants();
        List<StructPlan> structs = new ArrayList<>();
        List<HandlePlan> handles = new ArrayList<>();
        for (TypeDecl t : types.values()) {
            switch (t) {
                case TypeDecl.Struct s -> structs.add(struct(s.name()));
                case TypeDecl.Union u -> structs.add(struct(u.name()));
                case TypeDecl.Handle h -> handles.add(handle(h));
                case TypeDecl.Callback c -> callback(c);
                case TypeDecl.Alias a -> { }
            }
        }
        List<ConventionPlan> conventions = new ArrayList<>();
        for (ErrorConvention e : d.errors().values()) {
            ScalarKind k = ((CType.Scalar) d.resolve(e.type())).kind();
            conventions.add(new ConventionPlan(e.name(), k, e.success(), e.names()));
        }
        List<RawFunction> raw = new ArrayList<>();
        List<TypedFunction> typed = new ArrayList<>();
        List<ThunkPlan> thunks = new ArrayList<>();
        for (Function f : d.functions()) {
            if (!JavaNames.usableAsIs(f.name())) {
                skipped.add(new Skip(f.name(), "raw, typed, thunk", "'" + f.name() + "' is a Java keyword: no Java"
                        + " method can be named as the C symbol"));
                continue;
            }
            if (JavaNames.OBJECT_METHODS.contains(f.name())) {
                skipped.add(new Skip(f.name(), "raw, typed", "'" + f.name() + "' is a method of java.lang.Object: a static"
                        + " method of that name could clash with it" + (f.batchable() ? " (its thunk is generated)" : "")));
                if (f.batchable()) thunks.add(thunk(f, d.cFunction(f)));
                continue;
            }
            CFunction cf = d.cFunction(f);
            if (f.batchable() && isLifecycle(handles, f.name())) {
                skipped.add(new Skip(f.name(), "thunk", "a handle type's retain or release: recorded in a batch it would"
                        + " run again at every replay, behind the handle's count; the handle retains and releases"));
            } else if (f.batchable()) {
                thunks.add(thunk(f, cf));
            }
            String notPassable = notPassable(cf);
            if (notPassable != null) {
                skipped.add(new Skip(f.name(), "raw, typed", notPassable
                        + (f.batchable() ? " (its thunk is generated: call it in a Batch)" : "")));
                continue;
            }
            RawFunction rf = rawFunction(f, cf);
            List<TypedFunction> variants = distinguishable(typedFunctions(f, cf), skipped);
            ParameterSlots.checkFunction(rf, cf.type(), variants, f.location());
            raw.add(rf);
            if (variants.stream().anyMatch(v -> LifecycleCall.of(handles, v) != null && !LifecycleCall.returnsNothing(v))) {
                skipped.add(new Skip(f.name(), "typed", "a retain or release that returns a value: the typed layer"
                        + " retains and releases through the handle (retain(), release(), close())"));
                continue;
            }
            typed.addAll(variants);
        }
        String unit = d.library().replaceAll("[^A-Za-z0-9_]", "_");
        List<String> libraryNames = d.sonames().isEmpty() ? List.of(d.library()) : d.sonames();
        return new BindingPlan(Path.of(d.file()).getFileName().toString(), d.library(), names, libraryNames, unit,
                constants, structs, handles, List.copyOf(callbacks.values()), conventions, raw, typed, thunks, skipped);
    }

    /**
     * The variants a call can choose between without a cast: every two differ in their number of Java parameters
     * or at a position where neither takes null (there a caller passes a value, whose type picks the overload).
     * A variant that differs from one before it only where null is allowed ({@code clCreateContext(null, ..)}
     * would fit a {@code long[]} and a {@code MemorySegment}) is left out and reported.
     */
    private static List<TypedFunction> distinguishable(List<TypedFunction> variants, List<Skip> skipped) {
        List<TypedFunction> kept = new ArrayList<>();
        for (TypedFunction v : variants) {
            TypedFunction clash = kept.stream().filter(k -> !distinguishable(k, v)).findFirst().orElse(null);
            if (clash == null) {
                kept.add(v);
                continue;
            }
            skipped.add(new Skip(v.name(), "typed", "the " + v.variant().name().toLowerCase(java.util.Locale.ROOT)
                    + " variant differs from the " + clash.variant().name().toLowerCase(java.util.Locale.ROOT)
                    + " variant only in parameters that take null, so a call passing null could not choose between them"
                    + " (use the raw layer for segments there)"));
        }
        return kept;
    }

    private static boolean distinguishable(TypedFunction a, TypedFunction b) {
        List<TypedFunction.TypedParam> pa = a.params().stream().filter(TypedFunction.TypedParam::isJavaParameter).toList();
        List<TypedFunction.TypedParam> pb = b.params().stream().filter(TypedFunction.TypedParam::isJavaParameter).toList();
        if (pa.size() != pb.size()) return true;
        for (int i = 0; i < pa.size(); i++) {
            Mapping ma = pa.get(i).mapping();
            Mapping mb = pb.get(i).mapping();
            if (!TypedClassWriter.javaType(ma).equals(TypedClassWriter.javaType(mb))
                    && !(TypedClassWriter.nullable(ma) && TypedClassWriter.nullable(mb))) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code function} is a declared retain or release of one of {@code handles}. */
    private static boolean isLifecycle(List<HandlePlan> handles, String function) {
        for (HandlePlan h : handles) {
            if (h.ownable() && (function.equals(h.release()) && h.releaseDeclared() || function.equals(h.retain()) && h.retainDeclared())) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ names

    private BindingPlan.Names names() {
        Location top = new Location(d.file(), 1, 1);
        if (d.javaPackage() == null) {
            throw new DeclarationsException(top, "no package; expected package: org.example." + d.library().toLowerCase(Locale.ROOT)
                    .replaceAll("[^a-z0-9_]", "") + " (the Java package of the generated code)");
        }
        for (String part : d.javaPackage().split("\\.")) {
            if (!JavaNames.usableAsIs(part)) {
                throw new DeclarationsException(top, "package " + d.javaPackage() + " has the Java keyword '" + part
                        + "' in it; expected a usable Java package name");
            }
        }
        if (d.javaPackage().equals("java") || d.javaPackage().startsWith("java.")) {
            throw new DeclarationsException(top, "package " + d.javaPackage() + " is in java.*; expected a package of your own");
        }
        for (String part : d.javaPackage().split("\\.")) fitsAFileName(part, "package " + d.javaPackage(), top);
        fitsAFileName("libpanamax_glue_" + d.library() + ".so", "library " + d.library(), top);
        cKeywords();
        String raw = d.className();
        if (!JavaNames.usableAsIs(raw) || JavaNames.RESERVED_CLASS_NAMES.contains(raw)) {
            throw new DeclarationsException(top, "class '" + raw + "' cannot name the raw class (a Java keyword, or a name"
                    + " the generated code uses); expected another class name");
        }
        BindingPlan.Names n = new BindingPlan.Names(d.javaPackage(), raw, raw + "Api", raw + "Exception", raw + "Thunks",
                raw + "ByAddress");
        fitsAFileName(n.thunks() + "Types" + Integer.MAX_VALUE + ".class", "class " + raw, top);
        // the classes a large library is cut into (ClassSplit): parts, holders of downcalls and of types
        java.util.regex.Pattern parts = java.util.regex.Pattern.compile("(" + java.util.regex.Pattern.quote(n.raw()) + "(Part|Downcalls)"
                + "|" + java.util.regex.Pattern.quote(n.typed()) + "Part|" + java.util.regex.Pattern.quote(n.byAddress())
                + "|" + java.util.regex.Pattern.quote(n.thunks()) + "(Part|Types))[0-9]+");
        Map<String, String> taken = new HashMap<>();
        for (String c : List.of(n.raw(), n.typed(), n.exception(), n.thunks(), n.byAddress())) taken.put(c, "the generated class " + c);
        reserved.addAll(taken.keySet());
        for (TypeDecl t : types.values()) {
            if (t instanceof TypeDecl.Alias) continue;
            String c = JavaNames.className(t.name());
            if (JavaNames.RESERVED_CLASS_NAMES.contains(c) || JavaNames.KEYWORDS.contains(c)) {
                throw new DeclarationsException(t.location(), "type " + t.name() + " would be the Java class " + c
                        + ", a name the generated code needs for something else; expected another type name");
            }
            if (parts.matcher(c).matches()) {
                throw new DeclarationsException(t.location(), "type " + t.name() + " would be the Java class " + c
                        + ", a name bindgen gives to a part of a generated class; expected another type name");
            }
            String before = taken.putIfAbsent(c, "type " + t.name());
            if (before != null) {
                throw new DeclarationsException(t.location(), "type " + t.name() + " would be the Java class " + c
                        + ", already the class of " + before + "; expected names that differ as Java classes");
            }
            fitsAFileName(c + NESTED_CLASS_FILE, "type " + t.name(), t.location());
            classOf.put(t.name(), c);
            reserved.add(c);
        }
        for (Function f : d.functions()) {
            if (f.batchable()) fitsAFileName(n.thunks() + "$" + f.name() + "Recorder.class", "function " + f.name(), f.location());
            String record = JavaNames.capitalized(f.name()) + "Result";
            fitsAFileName(n.typed() + "$" + record + ".class", "function " + f.name(), f.location());
            String before = taken.get(record);
            if (before != null) {
                throw new DeclarationsException(f.location(), "function " + f.name() + " may return the record " + record
                        + ", already the class of " + before + "; expected names that differ as Java classes");
            }
        }
        return n;
    }

    /** The longest file a type's class is compiled into: a callback class's nested {@code $Native} and {@code $Holder}. */
    private static final String NESTED_CLASS_FILE = "$Holder.class";
    /** The longest file name most file systems take (ext4, xfs, btrfs, tmpfs: 255 bytes). */
    static final int MAX_FILE_NAME_BYTES = 255;

    /** A name becomes part of a file name (a source, a class file, the C glue, a package directory): it must fit one. */
    private static void fitsAFileName(String fileName, String what, Location at) {
        int bytes = fileName.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > MAX_FILE_NAME_BYTES) {
            if (what.length() > 300) what = what.substring(0, 300) + "...";
            throw new DeclarationsException(at, what + " makes the file name " + fileName.substring(0, 40) + "... ("
                    + bytes + " bytes); expected a shorter name (a file name holds " + MAX_FILE_NAME_BYTES + " bytes at most)");
        }
    }

    /** Names that are C keywords cannot come from a real C library, and would break the C glue. */
    private void cKeywords() {
        for (TypeDecl t : types.values()) {
            checkC(t.name(), "type", t.location());
            List<dev.panamax.bindgen.decl.Field> fields = switch (t) {
                case TypeDecl.Struct s -> s.fields();
                case TypeDecl.Union u -> u.fields();
                default -> List.of();
            };
            for (var f : fields) checkC(f.name(), "field", f.location());
            if (t instanceof TypeDecl.Callback c) for (Param p : c.params()) checkC(p.name(), "parameter", p.location());
        }
        for (Function f : d.functions()) {
            checkC(f.name(), "function", f.location());
            TypeDecl sameName = types.get(f.name());
            if (sameName != null) {
                throw new DeclarationsException(f.location(), "function " + f.name() + " has the name of type " + f.name() + " ("
                        + sameName.location() + "); C gives functions and type names one namespace, so expected names that differ");
            }
            for (Param p : f.params()) checkC(p.name(), "parameter", p.location());
        }
    }

    private static void checkC(String name, String what, Location at) {
        if (JavaNames.C_KEYWORDS.contains(name)) {
            throw new DeclarationsException(at, what + " name '" + name + "' is a C keyword; expected the name the C"
                    + " library uses (a C keyword cannot be one)");
        }
    }

    private List<ConstantPlan> constants() {
        List<ConstantPlan> out = new ArrayList<>();
        for (Constant c : d.constants().values()) {
            if (!JavaNames.usableAsIs(c.name())) {
                throw new DeclarationsException(c.location(), "constant '" + c.name() + "' is a Java keyword; expected a"
                        + " name usable as a Java field");
            }
            if (c.value() instanceof Long v) {
                if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) out.add(new ConstantPlan(c.name(), "int", Long.toString(v)));
                else out.add(new ConstantPlan(c.name(), "long", v == Long.MIN_VALUE ? "Long.MIN_VALUE" : v + "L"));
            } else {
                double v = c.value().doubleValue();
                String literal = Double.isNaN(v) ? "Double.NaN"
                        : v == Double.POSITIVE_INFINITY ? "Double.POSITIVE_INFINITY"
                        : v == Double.NEGATIVE_INFINITY ? "Double.NEGATIVE_INFINITY"
                        : Double.toString(v);
                out.add(new ConstantPlan(c.name(), "double", literal));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ types

    private StructPlan struct(String name) {
        CType.Aggregate a = (CType.Aggregate) d.resolveType(name);
        List<FieldPlan> fields = new ArrayList<>();
        Set<String> used = new java.util.HashSet<>();
        for (int i = 0; i < a.fields().size(); i++) {
            CType.Field f = a.fields().get(i);
            String accessor = JavaNames.member(f.name());
            if (STRUCT_MEMBERS.contains(accessor)) accessor = accessor + "_";
            while (!used.add(accessor)) accessor = accessor + "_";
            fields.add(new FieldPlan(f.name(), accessor, a.offsetOf(i), fieldKind(f.type())));
        }
        return new StructPlan(name, classOf.get(name), a instanceof CType.Union, a.size(), a.align(), aggregateLayout(a), fields);
    }

    private FieldKind fieldKind(CType t) {
        return switch (t) {
            case CType.Scalar s when s.kind() == ScalarKind.F80 -> new FieldKind.Opaque(s.size());
            case CType.Scalar s -> new FieldKind.Scalar(s.kind());
            case CType.Pointer p -> new FieldKind.Address();
            case CType.FunctionPointer p -> new FieldKind.Address();
            case CType.Aggregate a -> new FieldKind.Nested(classOf.get(a.name()), a.size());
            case CType.Array arr -> new FieldKind.Array(
                    arr.element() instanceof CType.Scalar s && s.kind() != ScalarKind.F80 ? s.kind() : null,
                    arr.length(), arr.size());
            case CType.Void v -> throw new IllegalStateException("void field");
        };
    }

    /** The FFM layout of an aggregate as Java source, mirroring {@link FfmLayouts} (long double as 16 aligned bytes). */
    private String aggregateLayout(CType.Aggregate a) {
        List<String> members = new ArrayList<>();
        if (a instanceof CType.Struct s) {
            long offset = 0;
            for (int i = 0; i < s.fields().size(); i++) {
                CType.Field f = s.fields().get(i);
                long at = s.offsetOf(i);
                if (at > offset) members.add("MemoryLayout.paddingLayout(" + (at - offset) + ")");
                members.add(layout(f.type()) + ".withName(" + JavaNames.literal(f.name()) + ")");
                offset = at + f.type().size();
            }
            if (s.size() > offset) members.add("MemoryLayout.paddingLayout(" + (s.size() - offset) + ")");
        } else {
            long largest = 0;
            for (CType.Field f : a.fields()) {
                members.add(layout(f.type()) + ".withName(" + JavaNames.literal(f.name()) + ")");
                largest = Math.max(largest, f.type().size());
            }
            if (a.size() > largest) members.add("MemoryLayout.paddingLayout(" + a.size() + ")");
        }
        String kind = a instanceof CType.Struct ? "structLayout" : "unionLayout";
        String layout = "MemoryLayout." + kind + "(\n            " + String.join(",\n            ", members) + ")";
        layout += ".withName(" + JavaNames.literal(a.name()) + ")";
        if (a.alignAs() > a.naturalAlign()) layout += ".withByteAlignment(" + a.alignAs() + ")";
        return layout;
    }

    /** The layout of a C type as Java source: value layouts, struct classes' LAYOUT, sequences. */
    private String layout(CType t) {
        return switch (t) {
            case CType.Scalar s when s.kind() == ScalarKind.F80 -> "MemoryLayout.sequenceLayout(16, ValueLayout.JAVA_BYTE).withByteAlignment(16)";
            case CType.Scalar s -> Carriers.valueLayout(s.kind());
            case CType.Pointer p -> "ValueLayout.ADDRESS";
            case CType.FunctionPointer p -> "ValueLayout.ADDRESS";
            case CType.Aggregate a -> classOf.get(a.name()) + ".LAYOUT";
            case CType.Array arr -> "MemoryLayout.sequenceLayout(" + arr.length() + ", " + layout(arr.element()) + ")";
            case CType.Void v -> throw new IllegalStateException("void has no layout");
        };
    }

    private HandlePlan handle(TypeDecl.Handle h) {
        Function retain = h.retain() == null ? null : d.function(h.retain()).orElse(null);
        Function release = h.release() == null ? null : d.function(h.release()).orElse(null);
        boolean retainDeclared = retain != null && JavaNames.usableAsIs(retain.name());
        boolean releaseDeclared = release != null && JavaNames.usableAsIs(release.name());
        return new HandlePlan(h.name(), classOf.get(h.name()), h.retain(), retainDeclared,
                retainDeclared ? retain.returns().status() : null, retainDeclared ? statusKind(retain) : null,
                h.release(), releaseDeclared, releaseDeclared ? release.returns().status() : null,
                releaseDeclared ? statusKind(release) : null, h.release() != null, h.ownership() == Returns.Ownership.OWNED);
    }

    /** The C type of a function's checked status (its return), or null when it declares none. */
    private ScalarKind statusKind(Function f) {
        if (f.returns().status() == null) return null;
        return ((CType.Scalar) d.resolve(f.returns().type())).kind();
    }

    private void callback(TypeDecl.Callback c) {
        CType.FunctionPointer fp = (CType.FunctionPointer) d.resolveType(c.name());
        try {
            FfmLayouts.descriptorOf(fp.signature());
        } catch (UnsupportedOperationException e) {
            skipped.add(new Skip(c.name(), "callback", e.getMessage() + "; parameters of this type are plain function"
                    + " pointers (MemorySegment)"));
            return;
        }
        ParameterSlots.checkCallback(c.name(), fp.signature(), c.location());
        List<CallbackParam> params = new ArrayList<>();
        List<String> javaNames = javaNames(c.params());
        int userDataIndex = -1;
        String userDataCarrier = null;
        for (int i = 0; i < c.params().size(); i++) {
            Param p = c.params().get(i);
            CType t = fp.signature().params().get(i).type();
            TypeRef r = TypeRefs.unalias(types, p.type());
            TypeDecl.Handle h = TypeRefs.handle(types, r);
            String carrier = Carriers.carrier(t);
            params.add(new CallbackParam(p.name(), javaNames.get(i), carrier, layout(t),
                    h == null ? null : classOf.get(h.name()), r instanceof TypeRef.CString));
            if (p.name().equals(c.userData())) {
                userDataIndex = i;
                userDataCarrier = carrier;
            }
        }
        CType ret = fp.signature().returns();
        callbacks.put(c.name(), new CallbackPlan(c.name(), classOf.get(c.name()), Carriers.carrier(ret),
                ret instanceof CType.Void ? null : layout(ret), params, userDataIndex, userDataCarrier, c.calls()));
    }

    // ------------------------------------------------------------------ functions

    private static String notPassable(CFunction cf) {
        try {
            FfmLayouts.descriptorOf(cf.type());
            return null;
        } catch (UnsupportedOperationException e) {
            return e.getMessage();
        }
    }

    private List<String> javaNames(List<Param> params) {
        return JavaNames.parameters(params.stream().map(Param::name).toList(), reserved);
    }

    private RawFunction rawFunction(Function f, CFunction cf) {
        List<RawParam> params = new ArrayList<>();
        List<String> javaNames = javaNames(f.params());
        for (int i = 0; i < f.params().size(); i++) {
            Param p = f.params().get(i);
            CType t = cf.type().params().get(i).type();
            params.add(new RawParam(p.name(), javaNames.get(i), Carriers.carrier(t), layout(t)));
        }
        CType ret = cf.type().returns();
        StringBuilder sig = new StringBuilder(f.returns().type().spelling()).append(' ').append(f.name()).append('(');
        for (int i = 0; i < f.params().size(); i++) {
            if (i > 0) sig.append(", ");
            sig.append(f.params().get(i).type().spelling()).append(' ').append(f.params().get(i).name());
        }
        sig.append(')');
        return new RawFunction(f, Carriers.carrier(ret), ret instanceof CType.Void ? null : layout(ret),
                ret instanceof CType.Aggregate, params, f.tier().name(), sig.toString());
    }

    /** A batchable function's recorder: critical per its tier, with the batch status rule of its convention. */
    private ThunkPlan thunk(Function f, CFunction cf) {
        String rule = d.statusRule(f).map(r -> r.successInRange()
                ? "StatusRule.successBetween(" + r.low() + "L, " + r.high() + "L)"
                : "new StatusRule(" + r.low() + "L, " + r.high() + "L, false)").orElse(null);
        List<String> javaNames = javaNames(f.params());
        List<RecordParam> params = new ArrayList<>();
        for (int i = 0; i < f.params().size(); i++) {
            TypeRef t = TypeRefs.unalias(types, f.params().get(i).type());
            String type;
            if (t instanceof TypeRef.Named n && types.get(n.name()) instanceof TypeDecl.Handle) {
                type = classOf.get(n.name());
            } else if (cf.type().params().get(i).type() instanceof CType.Scalar sc && sc.kind() != ScalarKind.F80) {
                type = Carriers.primitive(sc.kind());
            } else {
                type = "MemorySegment";
            }
            params.add(new RecordParam(javaNames.get(i), type));
        }
        return new ThunkPlan(f.name(), cf, f.isCritical(), rule, params);
    }

    private List<TypedFunction> typedFunctions(Function f, CFunction cf) {
        List<Param> ps = f.params();
        List<String> javaNames = javaNames(ps);
        List<TypeRef> resolved = ps.stream().map(p -> TypeRefs.unalias(types, p.type())).toList();
        Mapping[] base = new Mapping[ps.size()];

        // callbacks with a registry take their user data from the parameter of the same name
        for (int i = 0; i < ps.size(); i++) {
            if (!(TypeRefs.declOf(types, resolved.get(i)) instanceof TypeDecl.Callback c)) continue;
            CallbackPlan plan = callbacks.get(c.name());
            if (plan == null || !plan.usesRegistry()) continue;
            String udName = c.userData();
            for (int j = 0; j < ps.size(); j++) {
                if (j == i || base[j] != null || !ps.get(j).name().equals(udName)) continue;
                TypeRef ut = resolved.get(j);
                String carrier = ut instanceof TypeRef.AnyPointer || ut instanceof TypeRef.PointerTo ? "MemorySegment"
                        : ut instanceof TypeRef.Primitive p && TypeRefs.isInteger(p.kind()) && p.kind().size() == 8 ? "long"
                        : ut instanceof TypeRef.Primitive p && TypeRefs.isInteger(p.kind()) && p.kind().size() == 4 ? "int"
                        : null;
                if (carrier == null) continue;
                base[i] = new Mapping.CallbackValue(plan.className(), javaNames.get(j), ps.get(i).nullable(),
                        plan.calls() == TypeDecl.Callback.Calls.ONCE);
                base[j] = new Mapping.UserData(javaNames.get(i), carrier);
                break;
            }
        }

        // every other parameter, by its type
        for (int i = 0; i < ps.size(); i++) {
            if (base[i] != null) continue;
            base[i] = mapping(f, ps.get(i), resolved.get(i));
        }

        // the result: a checked status is consumed; out-parameters are returned when nothing else is
        Result result;
        String status = f.returns().status() == null ? null : "check_" + f.returns().status();
        TypeRef ret = TypeRefs.unalias(types, f.returns().type());
        if (status != null || ret instanceof TypeRef.Void) {
            result = new Result.Void();
        } else {
            result = switch (ret) {
                case TypeRef.Primitive p -> new Result.Scalar(p.kind(), TypeRefs.isBoolean(types, f.returns().type()));
                case TypeRef.CString s -> new Result.CString();
                case TypeRef.Named n when types.get(n.name()) instanceof TypeDecl.Handle h ->
                        new Result.Handle(classOf.get(h.name()), owned(f.returns().ownership(), h));
                case TypeRef.Named n when types.get(n.name()) instanceof TypeDecl.Struct
                        || types.get(n.name()) instanceof TypeDecl.Union -> new Result.Struct(classOf.get(n.name()));
                case TypeRef.PointerTo pt when f.returns().length() != null ->
                        new Result.Address(f.returns().length(), d.resolve(pt.target()).size());
                default -> new Result.Address(f.returns().length(), 1);
            };
        }
        List<String> outs = new ArrayList<>();
        List<Out> outTypes = new ArrayList<>();
        for (int i = 0; i < ps.size(); i++) {
            if (!(base[i] instanceof Mapping.ReturnedOut r)) continue;
            if (result instanceof Result.Void) {
                outs.add(javaNames.get(i));
                outTypes.add(r.out());
            } else {
                base[i] = switch (r.out()) {
                    case Out.Scalar s -> new Mapping.ScalarArray(s.kind(), Param.Direction.OUT, false, 1);
                    case Out.Handle h -> new Mapping.HandleArray(h.handleClass(), Param.Direction.OUT, false, h.owned(), 1);
                    case Out.Struct s -> new Mapping.StructPointer(s.structClass(), false);
                    case Out.Address a -> new Mapping.Segment(false);
                };
            }
        }
        String record = null;
        if (outTypes.size() == 1) {
            result = new Result.Outs(outTypes.getFirst().javaType());
        } else if (outTypes.size() > 1) {
            record = JavaNames.capitalized(f.name()) + "Result";
            result = new Result.Outs(record);
        }

        boolean hasScalarArrays = false;
        for (Mapping m : base) hasScalarArrays |= m instanceof Mapping.ScalarArray;
        // the element types of ptr parameters that take Java arrays (elements: [..]), one array variant each
        List<ScalarKind> elementKinds = new ArrayList<>();
        for (Param p : ps) for (ScalarKind k : p.elements()) if (!elementKinds.contains(k)) elementKinds.add(k);
        List<TypedFunction.Variant> variants = hasScalarArrays || !elementKinds.isEmpty()
                ? List.of(TypedFunction.Variant.ARRAYS, TypedFunction.Variant.SEGMENTS) : List.of(TypedFunction.Variant.ONLY);
        List<TypedFunction> out = new ArrayList<>();
        for (TypedFunction.Variant v : variants) {
            List<ScalarKind> kinds = v == TypedFunction.Variant.ARRAYS && !elementKinds.isEmpty() ? elementKinds : java.util.Collections.singletonList(null);
            for (ScalarKind element : kinds) {
                Mapping[] m = base.clone();
                for (int i = 0; i < m.length; i++) {
                    if (v == TypedFunction.Variant.SEGMENTS && m[i] instanceof Mapping.ScalarArray a) m[i] = new Mapping.Segment(a.nullable());
                    Param p = ps.get(i);
                    if (element != null && p.elements().contains(element)) {
                        m[i] = new Mapping.ScalarArray(element, p.direction(), p.nullable(), 0);
                    }
                }
                deriveLengths(f, ps, resolved, javaNames, m);
                List<TypedParam> tps = new ArrayList<>();
                for (int i = 0; i < ps.size(); i++) {
                    tps.add(new TypedParam(ps.get(i), javaNames.get(i), m[i], extent(ps, resolved, javaNames, m, i)));
                }
                out.add(new TypedFunction(f.name(), v, f.tier().name(), tps, result, status, statusKind(f), outs, record));
            }
        }
        return out;
    }

    /**
     * A length parameter is taken from what the caller passes for the pointers it sizes, when every one of them
     * says its own size: a Java array (its length; for a {@code ptr} taking arrays, its length times the element's
     * bytes), or a segment that may not be null (its size in elements). A segment that may be NULL keeps the length
     * a parameter: NULL with a size means something (OpenCL's {@code clSetKernelArg} of a {@code __local} argument,
     * {@code clCreateBuffer} without host memory).
     */
    private void deriveLengths(Function f, List<Param> ps, List<TypeRef> resolved, List<String> javaNames, Mapping[] m) {
        for (int l = 0; l < ps.size(); l++) {
            if (!(m[l] instanceof Mapping.Value v) || !TypeRefs.isInteger(v.kind()) || v.bool()) continue;
            String name = ps.get(l).name();
            // a count a length expression reads stays the caller's: the expression is checked against what it is given
            if (ps.stream().anyMatch(q -> q.expression() != null && q.expression().refs().contains(name))) continue;
            List<String> sources = new ArrayList<>();
            List<String> counts = new ArrayList<>();
            boolean derivable = true;
            for (int i = 0; i < ps.size(); i++) {
                if (!name.equals(ps.get(i).length())) continue;
                String j = javaNames.get(i);
                TypeRef r = resolved.get(i);
                String bytes = elementBytes(r);
                switch (m[i]) {
                    case Mapping.ScalarArray a when r instanceof TypeRef.AnyPointer ->
                            counts.add(j + ".length * " + a.element().size() + "L");   // a ptr's length counts bytes
                    case Mapping.ScalarArray a -> counts.add(j + ".length");
                    case Mapping.HandleArray a -> counts.add(j + ".length");
                    case Mapping.StringArray a -> counts.add(j + ".length");
                    case Mapping.Segment sg when !sg.nullable() && bytes != null ->
                            counts.add("ArgumentChecks.elements(" + JavaNames.literal(f.name()) + ", " + JavaNames.literal(ps.get(i).name())
                                    + ", " + j + ", " + bytes + ")");
                    default -> derivable = false;
                }
                sources.add(j);
            }
            if (!sources.isEmpty() && derivable) m[l] = new Mapping.DerivedLength(v.kind(), sources, counts);
        }
    }

    /**
     * How much memory C reads or writes through pointer {@code i}, when its {@code length} names a
     * parameter the Java caller gives: the typed method checks the memory against it before the call.
     * None for lengths taken from the arrays themselves or held in memory (an inout size).
     */
    private TypedFunction.Extent extent(List<Param> ps, List<TypeRef> resolved, List<String> javaNames, Mapping[] m, int i) {
        Param p = ps.get(i);
        if (p.count() > 0) {
            // arrays check a fixed count themselves (Mapping.ScalarArray.fixed); segments against it
            String elementBytes = elementBytes(resolved.get(i));
            return m[i] instanceof Mapping.Segment && elementBytes != null
                    ? new TypedFunction.Extent(p.count() + "L", "length", elementBytes) : null;
        }
        if (p.expression() != null) {
            String elementBytes = elementBytes(resolved.get(i));
            if (elementBytes == null || !(m[i] instanceof Mapping.Segment || m[i] instanceof Mapping.ScalarArray
                    || m[i] instanceof Mapping.HandleArray || m[i] instanceof Mapping.StringArray)) {
                return null;
            }
            java.util.function.Function<String, String> value = ref -> {
                for (int l = 0; l < ps.size(); l++) {
                    if (!ps.get(l).name().equals(ref)) continue;
                    return switch (m[l]) {
                        case Mapping.Value v -> asLong(v.kind(), javaNames.get(l));
                        default -> throw new IllegalStateException("length expression of " + p.name() + " reads " + ref + ", not an integer");
                    };
                }
                throw new IllegalStateException("length expression of " + p.name() + " reads " + ref + ", no parameter");
            };
            String count = p.expression().toJava(value);
            List<TypedFunction.Read> reads = p.expression().refs().stream()
                    .map(ref -> new TypedFunction.Read(ref, value.apply(ref))).toList();
            // a computed length of zero or less asks for nothing
            return new TypedFunction.Extent("Math.max(0L, " + count + ")", "needed", elementBytes,
                    new TypedFunction.Computed(p.expression().text(), reads));
        }
        if (p.length() == null) return null;
        if (!(m[i] instanceof Mapping.Segment || m[i] instanceof Mapping.ScalarArray || m[i] instanceof Mapping.HandleArray)) {
            return null;
        }
        for (int l = 0; l < ps.size(); l++) {
            if (!ps.get(l).name().equals(p.length())) continue;
            if (!(m[l] instanceof Mapping.Value v) || !TypeRefs.isInteger(v.kind()) || v.bool()) return null;
            String elementBytes = elementBytes(resolved.get(i));
            return elementBytes == null ? null
                    : new TypedFunction.Extent(asLong(v.kind(), javaNames.get(l)), ps.get(l).name(), elementBytes);
        }
        return null;
    }

    /** A count parameter as a long: unsigned ones widened as unsigned, the others as they are. */
    private static String asLong(ScalarKind kind, String javaName) {
        return switch (kind) {
            case U8, U16, U32 -> Carriers.toLong(kind, javaName);
            default -> javaName;
        };
    }

    /** The bytes of one element behind a pointer, as Java source; null when the pointer's type does not say. */
    private String elementBytes(TypeRef pointer) {
        return switch (pointer) {
            case TypeRef.AnyPointer a -> "1";    // the length of a ptr counts bytes
            case TypeRef.CString s -> "1";
            case TypeRef.PointerTo ptr -> switch (TypeRefs.unalias(types, ptr.target())) {
                case TypeRef.Primitive prim -> Integer.toString(prim.kind().size());
                case TypeRef.Named n when types.get(n.name()) instanceof TypeDecl.Struct
                        || types.get(n.name()) instanceof TypeDecl.Union -> classOf.get(n.name()) + ".SIZE";
                default -> "ValueLayout.ADDRESS.byteSize()";    // handles, pointers, strings, function pointers
            };
            default -> null;
        };
    }

    private Mapping mapping(Function f, Param p, TypeRef t) {
        if (p.errcode() != null) {
            ScalarKind k = ((TypeRef.Primitive) TypeRefs.unalias(types, ((TypeRef.PointerTo) t).target())).kind();
            return new Mapping.Errcode("check_" + p.errcode(), k);
        }
        boolean returnable = p.direction() == Param.Direction.OUT && !p.hasLength() && !p.nullable();
        return switch (t) {
            case TypeRef.Primitive prim -> new Mapping.Value(prim.kind(), TypeRefs.isBoolean(types, p.type()));
            case TypeRef.AnyPointer a -> new Mapping.Segment(p.nullable());
            case TypeRef.CString s -> p.direction() == Param.Direction.IN ? new Mapping.StringIn(p.nullable())
                    : new Mapping.ScalarArray(ScalarKind.U8, p.direction(), p.nullable(), fixedCount(p));
            case TypeRef.Named n -> switch (types.get(n.name())) {
                case TypeDecl.Handle h -> new Mapping.HandleValue(classOf.get(h.name()), p.nullable());
                case TypeDecl.Struct s -> new Mapping.StructValue(classOf.get(s.name()));
                case TypeDecl.Union u -> new Mapping.StructValue(classOf.get(u.name()));
                default -> new Mapping.Segment(p.nullable());   // a callback without a registry: a function pointer
            };
            case TypeRef.PointerTo ptr -> pointer(p, TypeRefs.unalias(types, ptr.target()), TypeRefs.isBoolean(types, ptr.target()), returnable);
            default -> new Mapping.Segment(p.nullable());
        };
    }

    private Mapping pointer(Param p, TypeRef target, boolean bool, boolean returnable) {
        switch (target) {
            case TypeRef.Primitive prim when Carriers.hasArray(prim.kind()) -> {
                if (returnable) return new Mapping.ReturnedOut(new Out.Scalar(prim.kind(), bool));
                return new Mapping.ScalarArray(prim.kind(), p.direction(), p.nullable(), fixedCount(p), p.terminated());
            }
            case TypeRef.Named n when types.get(n.name()) instanceof TypeDecl.Handle h -> {
                boolean owned = owned(p.ownership(), h);
                if (returnable) return new Mapping.ReturnedOut(new Out.Handle(classOf.get(h.name()), owned));
                if (p.direction() == Param.Direction.INOUT) return new Mapping.Segment(p.nullable());
                return new Mapping.HandleArray(classOf.get(h.name()), p.direction(), p.nullable(), owned, fixedCount(p));
            }
            case TypeRef.Named n when types.get(n.name()) instanceof TypeDecl.Struct
                    || types.get(n.name()) instanceof TypeDecl.Union -> {
                if (returnable) return new Mapping.ReturnedOut(new Out.Struct(classOf.get(n.name())));
                if (p.hasLength()) return new Mapping.Segment(p.nullable());
                return new Mapping.StructPointer(classOf.get(n.name()), p.nullable());
            }
            case TypeRef.CString s when p.direction() == Param.Direction.IN -> {
                return new Mapping.StringArray(p.nullable());
            }
            default -> {
                if (returnable) return new Mapping.ReturnedOut(new Out.Address());
                return new Mapping.Segment(p.nullable());
            }
        }
    }

    /**
     * The elements C uses through a pointer when no parameter says: the fixed count, else one; 0 when a
     * parameter says or the list ends at its terminator.
     */
    private static int fixedCount(Param p) {
        if (p.length() != null || p.expression() != null || p.terminated()) return 0;
        return p.count() > 0 ? p.count() : 1;
    }

    private static boolean owned(Returns.Ownership declared, TypeDecl.Handle h) {
        Returns.Ownership o = declared != null ? declared : h.ownership();
        return o == Returns.Ownership.OWNED && h.release() != null;
    }
}
