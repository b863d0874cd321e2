package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.Param;
import dev.panamax.bindgen.gen.BindingPlan.RawFunction;
import dev.panamax.bindgen.gen.TypedFunction.Mapping;
import dev.panamax.bindgen.gen.TypedFunction.Out;
import dev.panamax.bindgen.gen.TypedFunction.Result;
import dev.panamax.bindgen.gen.TypedFunction.TypedParam;
import dev.panamax.core.abi.ScalarKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The typed layer: one static method per function variant, taking handles, Java arrays, strings,
 * struct classes and handlers; returning handles (owned or borrowed as declared), values and
 * out-parameters; turning statuses and errcodes into the library's exception. Every method calls
 * the raw layer, or, when it passes pointers of its own (handles, scratch memory), the by-address
 * downcall ({@link ByAddressClassWriter}); temporaries live in a {@code ScratchStack} frame for the
 * duration of the call.
 */
final class TypedClassWriter {
    private TypedClassWriter() {}

    /** Constant-pool entries a typed method may use by estimate: its names, the strings its checks pass, the calls it makes. */
    private static int poolEntries(List<TypedFunction> variants) {
        int n = 0;
        for (TypedFunction f : variants) n += 40 + 4 * f.params().size();
        return n;
    }

    /**
     * The typed class (and its parts, when one class file cannot hold it: {@link ClassSplit#partName}), class
     * name to source; {@code byAddress} names the class of each by-address shape ({@link ByAddressClassWriter}).
     */
    static Map<String, String> write(BindingPlan plan, Map<String, String> byAddress) {
        // the variants of a function stay together, in one part
        Map<String, List<TypedFunction>> byName = new LinkedHashMap<>();
        for (TypedFunction f : plan.typedFunctions()) byName.computeIfAbsent(f.name(), k -> new ArrayList<>()).add(f);
        List<List<List<TypedFunction>>> parts = ClassSplit.split(List.copyOf(byName.values()), TypedClassWriter::poolEntries,
                ClassSplit.POOL_BUDGET, Integer.MAX_VALUE);
        Map<String, RawFunction> raw = plan.rawFunctions().stream().collect(Collectors.toMap(RawFunction::name, Function.identity()));
        Map<String, String> out = new LinkedHashMap<>();
        Set<String> records = new LinkedHashSet<>();
        for (int i = 0; i < parts.size(); i++) {
            List<TypedFunction> functions = parts.get(i).stream().flatMap(List::stream).toList();
            out.put(ClassSplit.partName(plan.names().typed(), i, parts.size()), part(plan, functions, i, parts.size(), raw, byAddress, records));
        }
        return out;
    }

    private static String part(BindingPlan plan, List<TypedFunction> functions, int i, int parts, Map<String, RawFunction> raw,
                               Map<String, String> byAddress, Set<String> records) {
        BindingPlan.Names n = plan.names();
        Source s = new Source(plan, List.of("dev.panamax.core.Checks", "dev.panamax.core.memory.AllocatesForCaller", "dev.panamax.core.binding.ArgumentChecks", "dev.panamax.core.binding.Staging", "dev.panamax.core.memory.CallGuard", "dev.panamax.core.memory.CallSlot", "dev.panamax.core.call.ScratchStack", "dev.panamax.core.upcall.CallbackRegistry",
                "java.lang.foreign.Arena", "java.lang.foreign.MemorySegment", "java.lang.foreign.ValueLayout",
                "java.lang.ref.Reference"));
        if (i == parts - 1) {
            s.doc("The typed layer of " + plan.library() + " ({@code " + plan.sourceName() + "}): methods named as the C functions, taking",
                    "handle classes, Java arrays (lengths taken from them), strings and handlers; out-parameters come back as the",
                    "result; a failed status or errcode throws {@link " + n.exception() + "}. Functions with pointers to scalars",
                    "also have a variant taking {@link MemorySegment}s (lengths given). The raw layer is {@link " + n.raw() + "}.");
        } else {
            s.doc(ClassSplit.partDoc(n.typed(), i, parts));
        }
        s.line("@AllocatesForCaller");
        // a returned pointer with a declared length is sized with MemorySegment.reinterpret
        if (functions.stream().anyMatch(f -> f.result() instanceof Result.Address a && a.length() != null)) {
            s.line("@SuppressWarnings(\"restricted\")");
        }
        ClassSplit.openPart(s, n.typed(), i, parts);
        for (TypedFunction f : functions) {
            if (f.resultRecord() != null && records.add(f.resultRecord())) record(s, f);
        }
        for (TypedFunction f : functions) method(s, plan, f, raw.get(f.name()), byAddress);
        s.close("}");
        return s.toString();
    }

    private static void record(Source s, TypedFunction f) {
        List<String> components = new ArrayList<>();
        for (TypedParam p : f.params()) {
            if (p.mapping() instanceof Mapping.ReturnedOut r) components.add(r.out().javaType() + " " + p.javaName());
        }
        s.line("");
        s.doc("The out-parameters of {@code " + f.name() + "}.");
        s.line("public record " + f.resultRecord() + "(" + String.join(", ", components) + ") {}");
    }

    /** The Java type of a parameter fed by {@code m}. */
    static String javaType(Mapping m) {
        return switch (m) {
            case Mapping.Value v -> v.bool() ? "boolean" : Carriers.primitive(v.kind());
            case Mapping.HandleValue h -> h.handleClass();
            case Mapping.StructValue sv -> sv.structClass();
            case Mapping.StructPointer sp -> sp.structClass();
            case Mapping.CallbackValue cb -> cb.callbackClass();
            case Mapping.StringIn si -> "String";
            case Mapping.Segment sg -> "MemorySegment";
            case Mapping.ScalarArray a -> Carriers.array(a.element());
            case Mapping.HandleArray ha -> ha.handleClass() + "[]";
            case Mapping.StringArray sa -> "String[]";
            default -> throw new IllegalStateException("not a Java parameter: " + m);
        };
    }

    /** Whether {@code m} accepts null (true for primitives, which are checked by no one). */
    static boolean nullable(Mapping m) {
        return switch (m) {
            case Mapping.HandleValue h -> h.nullable();
            case Mapping.StructPointer sp -> sp.nullable();
            case Mapping.CallbackValue cb -> cb.nullable();
            case Mapping.StringIn si -> si.nullable();
            case Mapping.Segment sg -> sg.nullable();
            case Mapping.ScalarArray a -> a.nullable();
            case Mapping.HandleArray ha -> ha.nullable();
            case Mapping.StringArray sa -> sa.nullable();
            default -> true;    // primitives; struct values are checked by their use
        };
    }

    /**
     * Where the call's scratch frame comes from: null when nothing is staged; a push when something is
     * staged on every call (an errcode or returned out-parameter, an argument that may not be null);
     * otherwise a push only when one of the nullable staged arguments is given, so that a call passing
     * null for all of them (no wait list, no event) opens no frame. Every staging helper returns NULL
     * for a null argument without touching the frame, and try-with-resources skips a null resource.
     */
    private static String frameSource(TypedFunction f) {
        List<String> optional = new ArrayList<>();
        for (TypedParam p : f.params()) {
            boolean staged = switch (p.mapping()) {
                case Mapping.StringIn x -> true;
                case Mapping.StringArray x -> true;
                case Mapping.HandleArray x -> true;
                case Mapping.Errcode x -> true;
                case Mapping.ReturnedOut x -> true;
                case Mapping.ScalarArray x -> !f.heapInPlace() || x.terminated();
                default -> false;
            };
            if (!staged) continue;
            if (!p.isJavaParameter() || !nullable(p.mapping())) return "ScratchStack.push()";
            optional.add(p.javaName() + " == null");
        }
        if (optional.isEmpty()) return null;
        return String.join(" && ", optional) + " ? null : ScratchStack.push()";
    }

    private static void method(Source s, BindingPlan plan, TypedFunction f, RawFunction raw, Map<String, String> byAddress) {
        LifecycleCall lifecycle = LifecycleCall.of(plan.handles(), f);
        if (lifecycle != null) {
            lifecycleMethod(s, plan, f, raw, lifecycle);
            return;
        }
        BindingPlan.Names n = plan.names();
        String fn = JavaNames.literal(f.name());
        List<String> params = new ArrayList<>();
        for (TypedParam p : f.params()) if (p.isJavaParameter()) params.add(javaType(p.mapping()) + " " + p.javaName());
        s.line("");
        s.doc(doc(plan, f, raw).toArray(String[]::new));
        s.open("public static " + f.result().javaType() + " " + f.name() + "(" + String.join(", ", params) + ") {");

        // the argument checks: in a method of their own when there are several, so that the typed method stays
        // small enough (bytecodes) for the JIT to inline into a hot caller, where constant arguments fold
        Source checks = new Source();
        RequirementChecks.write(checks, f, raw.decl());
        checks(checks, plan, f);
        boolean outlined = checks.lines() >= OUTLINE_CHECKS;
        // all of them behind the static final switch (-Dpanamax.checks=false removes them; the JIT folds the test)
        if (outlined) {
            List<String> names = f.params().stream().filter(TypedParam::isJavaParameter).map(TypedParam::javaName).toList();
            s.line("if (Checks.CHECKS) $$check$" + f.name() + "(" + String.join(", ", names) + ");");
        } else if (checks.lines() > 0) {
            s.open("if (Checks.CHECKS) {");
            s.append(checks);
            s.close("}");
        }
        // a Java array is good for the call only: refused where the library may keep using the memory
        for (TypedParam p : f.params()) {
            if (!(p.mapping() instanceof Mapping.ScalarArray) || p.decl().asyncUnless() == null) continue;
            String flag = f.params().stream().filter(q -> q.decl().name().equals(p.decl().asyncUnless())).findFirst().orElseThrow().javaName();
            s.line("ArgumentChecks.synchronous(" + flag + ", " + fn + ", " + JavaNames.literal(p.decl().name()) + ", "
                    + JavaNames.literal(p.decl().asyncUnless()) + ");");
        }
        // lengths taken from the arrays and segments passed
        for (TypedParam p : f.params()) {
            if (!(p.mapping() instanceof Mapping.DerivedLength dl)) continue;
            String carrier = Carriers.primitive(dl.kind());
            String expr;
            if (dl.sources().size() == 1) {
                String src = dl.sources().getFirst();
                String count = dl.counts().getFirst();
                boolean wide = !count.equals(src + ".length");     // a long: bytes of an array, elements of a segment
                expr = src + " == null ? 0 : " + (wide && !carrier.equals("long") ? "Math.toIntExact(" + count + ")" : count);
            } else {
                String names = JavaNames.literal(String.join(", ", dl.sources()));
                List<String> lengths = new ArrayList<>();
                for (int i = 0; i < dl.sources().size(); i++) {
                    String src = dl.sources().get(i);
                    String count = dl.counts().get(i);
                    lengths.add(src + " == null ? -1 : " + (count.equals(src + ".length") ? count : "Math.toIntExact(" + count + ")"));
                }
                expr = "ArgumentChecks.commonLength(" + fn + ", " + JavaNames.literal(p.decl().name()) + ", " + names + ", "
                        + String.join(", ", lengths) + ")";
            }
            String cast = carrier.equals("int") || carrier.equals("long") ? "" : "(" + carrier + ") ";
            s.line(carrier + " $" + p.javaName() + " = " + cast + "(" + expr + ");");
        }
        // handlers registered before the call, dropped again if the call fails
        List<String> registrations = new ArrayList<>();
        for (TypedParam p : f.params()) {
            if (!(p.mapping() instanceof Mapping.CallbackValue cb)) continue;
            s.line("int $" + p.javaName() + " = " + p.javaName() + " == null ? 0 : " + cb.callbackClass() + ".register("
                    + p.javaName() + ", " + cb.once() + ");");
            registrations.add("if ($" + p.javaName() + " != 0) " + cb.callbackClass() + ".registry().unregister($" + p.javaName() + ");");
        }
        // the handles the call passes are published as in use until it returns (CallGuard): a close on another
        // thread meanwhile defers its release
        boolean guarded = guarded(f);
        if (guarded) {
            s.line("CallSlot $$in = CallGuard.enter();");
        }
        String frameSource = frameSource(f);
        boolean frame = frameSource != null;
        if (frame) s.open("try (ScratchStack.Frame $$frame = " + frameSource + ") {");
        List<Boolean> addresses = ByAddressClassWriter.addresses(f, raw);
        for (int i = 0; i < f.params().size(); i++) stage(s, plan, f, f.params().get(i), addresses.get(i));
        boolean hasValue = !raw.returnCarrier().equals("void");
        if (!registrations.isEmpty()) {
            if (hasValue) s.line(raw.returnCarrier() + " $$result;");
            s.open("try {");
        }

        // handles passed by value, two or three at a time, published in use with one store of the slot's
        // height and checked together: the group's first argument is CallGuard.use of the group, the others
        // CallGuard.address (Java evaluates arguments left to right)
        Map<String, String> published = guarded ? publishedTogether(f) : Map.of();
        // the call: pointers of the method's own as addresses, through the by-address downcall, when there are any
        List<String> args = new ArrayList<>();
        if (raw.returnsGroup()) args.add("Arena.ofAuto()");
        for (int i = 0; i < f.params().size(); i++) {
            TypedParam p = f.params().get(i);
            String arg;
            if (p.mapping() instanceof Mapping.HandleValue && published.containsKey(p.javaName())) {
                String address = published.get(p.javaName());
                arg = addresses.get(i) ? address : "MemorySegment.ofAddress(" + address + ")";
            } else {
                arg = addresses.get(i) ? (stagedAsAddress(f, p, true) ? "$" + p.javaName() : address(plan, p)) : argument(plan, p);
            }
            args.add(arg);
        }
        String target = addresses.contains(true) ? byAddress.get(new ByAddressClassWriter.Shape(raw, addresses).field()) : n.raw();
        String call = target + "." + f.name() + "(" + String.join(", ", args) + ")";
        String declare = registrations.isEmpty() ? raw.returnCarrier() + " " : "";
        s.line(hasValue ? declare + "$$result = " + call + ";" : call + ";");
        // the call's end (CallGuard) right after it, with no finally: entries an exception leaves behind are
        // dropped by the thread's next call, and the method stays small enough to inline
        String exitFence = null;
        for (TypedParam p : f.params()) {
            boolean fence = switch (p.mapping()) {
                case Mapping.HandleValue h -> true;
                case Mapping.HandleArray h -> h.direction() == Param.Direction.IN;
                case Mapping.StructValue sv -> true;
                case Mapping.StructPointer sp -> true;
                case Mapping.Segment sg -> true;
                case Mapping.ScalarArray a -> f.heapInPlace() && !a.terminated();
                default -> false;
            };
            if (!fence) continue;
            if (guarded && exitFence == null) {
                // the call's end and the first fence in one call
                exitFence = p.javaName();
                s.line("CallGuard.exit($$in, " + exitFence + ");");
            } else {
                s.line("Reference.reachabilityFence(" + p.javaName() + ");");
            }
        }
        // statuses
        if (f.status() != null) {
            s.line(statusCheck(plan, f.status(), Carriers.toLong(f.statusKind(), "$$result"), fn));
        }
        for (TypedParam p : f.params()) {
            if (!(p.mapping() instanceof Mapping.Errcode e)) continue;
            String value = "$" + p.javaName() + ".get(" + Carriers.valueLayout(e.kind()) + ", 0)";
            s.line("long $$code$" + p.javaName() + " = " + Carriers.toLong(e.kind(), value) + ";");
            s.line(statusCheck(plan, e.checkMethod(), "$$code$" + p.javaName(), fn));
        }
        if (!registrations.isEmpty()) {
            s.mid("} catch (RuntimeException | Error $$e) {");
            for (String r : registrations) s.line(r);
            s.line("throw $$e;");
            s.close("}");
        }
        // results written through pointers
        for (TypedParam p : f.params()) copyBack(s, plan, f, p);
        result(s, plan, f);
        if (frame) s.close("}");
        s.close("}");
        if (outlined) checkMethod(s, f, params, checks);
    }

    /**
     * The check of a status or errcode {@code code} (a long expression) by the convention whose check method is
     * {@code checkMethod}: its success test here, the exception class's check only on failure. C2 never inlines a
     * method of a {@code Throwable} subclass into a caller outside one, so calling the check on every return would
     * be a real call per native call (about 0.8 ns each on the null driver).
     */
    private static String statusCheck(BindingPlan plan, String checkMethod, String code, String fn) {
        BindingPlan.ConventionPlan c = plan.conventions().stream().filter(x -> x.checkMethod().equals(checkMethod))
                .findFirst().orElseThrow();
        String failed = String.join(" && ", c.success().stream().distinct().map(v -> code + " != " + v + "L").toList());
        return "if (" + failed + ") " + plan.names().exception() + "." + checkMethod + "(" + code + ", " + fn + ");";
    }

    /**
     * The argument expressions of the handles {@code f} takes by value when there are two or more, by Java
     * name: in groups of two or three, the first of a group {@code CallGuard.use($$in, a, b[, c])}, the
     * others {@code CallGuard.address($$in, b)}. A single handle is published by the one-handle
     * {@code use} in its argument instead (an empty map).
     */
    private static Map<String, String> publishedTogether(TypedFunction f) {
        List<String> handles = new ArrayList<>();
        for (TypedParam p : f.params()) {
            if (p.mapping() instanceof Mapping.HandleValue) handles.add(p.javaName());
        }
        if (handles.size() < 2) return Map.of();
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < handles.size(); ) {
            int left = handles.size() - i;
            int n = left == 4 ? 2 : Math.min(3, left); // groups of two or three, never one left over
            List<String> group = handles.subList(i, i + n);
            out.put(group.get(0), "CallGuard.use($$in, " + String.join(", ", group) + ")");
            for (String h : group.subList(1, n)) out.put(h, "CallGuard.address($$in, " + h + ")");
            i += n;
        }
        return out;
    }

    private static boolean guarded(TypedFunction f) {
        for (TypedParam p : f.params()) {
            if (p.mapping() instanceof Mapping.HandleValue) return true;
            if (p.mapping() instanceof Mapping.HandleArray h && h.direction() == Param.Direction.IN) return true;
        }
        return false;
    }

    /**
     * A handle type's retain or release: the handle's own {@code retain()} / {@code release()}, so that the
     * Java handle stays the one owner of its native reference (the release action calls the library once,
     * when the handle's last reference goes).
     */
    private static void lifecycleMethod(Source s, BindingPlan plan, TypedFunction f, RawFunction raw, LifecycleCall lc) {
        BindingPlan.Names n = plan.names();
        String p = LifecycleCall.parameter(f);
        String c = lc.handle().className();
        s.line("");
        List<String> doc = new ArrayList<>();
        doc.add("{@code " + JavaNames.doc(raw.cSignature()) + "}; tier " + f.tier().toLowerCase(Locale.ROOT) + ".");
        if (lc.release()) {
            doc.add("The handle's own release: drops one of {@code " + p + "}'s references ({@link " + c + "#release()}); the last");
            doc.add("one releases the object with {@code " + f.name() + "}, once" + (f.status() != null
                    ? " (a failed status throws {@link " + n.exception() + "})" : "") + ", and a borrowed handle never does.");
            doc.add("A released handle throws {@link dev.panamax.core.memory.HandleReleasedException}: a second release never");
            doc.add("reaches the library, and neither {@code close()} nor the Cleaner releases the object again.");
        } else {
            doc.add("The handle's own retain: adds a reference to {@code " + p + "} ({@link " + c + "#retain()}) for a later");
            doc.add("release to drop; the handle keeps one native reference for all of its own. A second owned handle of the");
            doc.add("same object comes from {@link " + c + "#newReference()}. A released handle throws");
            doc.add("{@link dev.panamax.core.memory.HandleReleasedException}.");
        }
        s.doc(doc.toArray(String[]::new));
        s.open("public static void " + f.name() + "(" + c + " " + p + ") {");
        s.line("ArgumentChecks.notNull(" + p + ", " + JavaNames.literal(f.name()) + ", " + JavaNames.literal(f.params().getFirst().decl().name()) + ");");
        s.line(p + (lc.release() ? ".release();" : ".retain();"));
        s.close("}");
    }

    /** Statements of argument checks from which they move to a method of their own. */
    private static final int OUTLINE_CHECKS = 2;

    /**
     * The checks before the call: arguments that must not be null, arrays that must hold an element, memory
     * behind a pointer against the length the caller gives for it.
     */
    private static void checks(Source s, BindingPlan plan, TypedFunction f) {
        BindingPlan.Names n = plan.names();
        String fn = JavaNames.literal(f.name());
        for (TypedParam p : f.params()) {
            if (p.isJavaParameter() && !nullable(p.mapping()) || p.mapping() instanceof Mapping.StructValue) {
                s.line("ArgumentChecks.notNull(" + p.javaName() + ", " + fn + ", " + JavaNames.literal(p.decl().name()) + ");");
            }
            int fixed = switch (p.mapping()) {
                case Mapping.ScalarArray a -> a.fixed();
                case Mapping.HandleArray h -> h.fixed();
                default -> 0;
            };
            if (fixed > 0) {
                s.line("if (" + p.javaName() + " != null) ArgumentChecks.atLeast(" + fn + ", "
                        + JavaNames.literal(p.decl().name()) + ", " + p.javaName() + ".length, " + fixed + ");");
            }
        }
        // memory behind a pointer against the length the caller gives for it
        for (TypedParam p : f.params()) {
            TypedFunction.Extent e = p.extent();
            if (e == null) continue;
            String names = JavaNames.literal(p.decl().name()) + ", " + JavaNames.literal(e.countName());
            String check = p.mapping() instanceof Mapping.Segment
                    ? "ArgumentChecks.fits(" + fn + ", " + names + ", " + p.javaName() + ", " + e.count() + ", " + e.elementBytes() + ");"
                    : "if (" + p.javaName() + " != null) ArgumentChecks.enough(" + fn + ", " + names + ", "
                            + p.javaName() + ".length, " + e.count() + ");";
            if (e.computed() == null) {
                s.line(check);
                continue;
            }
            // exact arithmetic: a count beyond 64 bits is the caller's bad input, said in the declaration's terms
            s.open("try {");
            s.line(check);
            s.mid("} catch (ArithmeticException $$overflow) {");
            List<String> values = e.computed().reads().stream()
                    .map(r -> JavaNames.literal(" " + r.name() + "=") + " + " + r.java()).toList();
            s.line("throw ArgumentChecks.lengthOverflow(" + fn + ", " + JavaNames.literal(p.decl().name()) + ", "
                    + JavaNames.literal(e.computed().text()) + ", " + (values.isEmpty() ? "\"\"" : String.join(" + ", values)) + ");");
            s.close("}");
        }
    }

    /** The outlined {@code checks} of {@code f}: a private method taking the typed method's parameters. */
    private static void checkMethod(Source s, TypedFunction f, List<String> params, Source checks) {
        s.line("");
        s.open("private static void $$check$" + f.name() + "(" + String.join(", ", params) + ") {");
        s.append(checks);
        s.close("}");
    }

    private static List<String> doc(BindingPlan plan, TypedFunction f, RawFunction raw) {
        List<String> d = new ArrayList<>();
        // through the by-address downcall a critical function is linked standard (ByAddressClassWriter.typedTier)
        String tier = ByAddressClassWriter.addresses(f, raw).contains(true) ? ByAddressClassWriter.typedTier(f.tier()) : f.tier();
        d.add("{@code " + JavaNames.doc(raw.cSignature()) + "}; tier " + f.tier().toLowerCase(Locale.ROOT)
                + (tier.equals(f.tier()) ? "." : ", linked " + tier.toLowerCase(Locale.ROOT) + " here (it polls for a safepoint as it returns, also in a loop)."));
        List<String> notes = new ArrayList<>();
        for (TypedParam p : f.params()) {
            switch (p.mapping()) {
                case Mapping.DerivedLength dl -> notes.add("{@code " + p.decl().name() + "} is the length of {@code "
                        + String.join("}/{@code ", dl.sources()) + "}.");
                case Mapping.ScalarArray a when a.terminated() -> notes.add("{@code " + p.decl().name()
                        + "} is a zero-terminated list, passed with zeros after it: its own 0 may be left out.");
                case Mapping.Errcode e -> notes.add("{@code " + p.decl().name() + "} is checked: a failure throws {@link "
                        + plan.names().exception() + "}.");
                case Mapping.CallbackValue cb -> notes.add("{@code " + p.decl().name() + "} is registered; its id is passed as {@code "
                        + cb.userData() + "}.");
                case Mapping.HandleArray h when h.direction() != Param.Direction.IN -> notes.add("{@code " + p.decl().name()
                        + "} receives " + (h.owned() ? "owned" : "borrowed") + " handles.");
                default -> { }
            }
        }
        if (f.status() != null) notes.add("The status is checked: a failure throws {@link " + plan.names().exception() + "}.");
        if (!f.outs().isEmpty()) notes.add("Returns " + (f.outs().size() == 1 ? "{@code " + f.outs().getFirst() + "}"
                : "{@code " + String.join("}, {@code ", f.outs()) + "}") + ".");
        if (f.result() instanceof Result.Handle h) notes.add("Returns " + (h.owned() ? "an owned" : "a borrowed") + " handle.");
        if (f.result() instanceof Result.Address a && a.length() != null) {
            notes.add("Returns the memory as a segment of {@code " + a.length() + "}"
                    + (a.elementBytes() == 1 ? " bytes" : " elements of " + a.elementBytes() + " bytes") + " (NULL as NULL).");
        }
        if (!notes.isEmpty()) d.add(String.join(" ", notes));
        return d;
    }

    /** Whether {@code p} is staged straight to an address: an array copied in, passed as a {@code long}. */
    private static boolean stagedAsAddress(TypedFunction f, TypedParam p, boolean asAddress) {
        return asAddress && p.mapping() instanceof Mapping.ScalarArray a && !a.terminated() && !f.heapInPlace()
                && a.direction() == Param.Direction.IN;
    }

    private static void stage(Source s, BindingPlan plan, TypedFunction f, TypedParam p, boolean asAddress) {
        if (stagedAsAddress(f, p, asAddress)) {
            // no segment made: the copy's address goes to C as it is
            s.line("long $" + p.javaName() + " = " + p.javaName() + " == null ? 0L : $$frame.addressOfCopy(" + p.javaName() + ");");
            return;
        }
        String sup = "Staging";
        String j = p.javaName();
        switch (p.mapping()) {
            // a string holding a NUL is refused, naming the function and the parameter, not cut short in C
            case Mapping.StringIn si -> s.line("MemorySegment $" + j + " = " + sup + ".cString($$frame, " + j + ", "
                    + JavaNames.literal(f.name()) + ", " + JavaNames.literal(p.decl().name()) + ");");
            case Mapping.StringArray sa -> s.line("MemorySegment $" + j + " = " + sup + ".strings($$frame, " + j + ", "
                    + JavaNames.literal(f.name()) + ", " + JavaNames.literal(p.decl().name()) + ");");
            case Mapping.HandleArray h -> s.line("MemorySegment $" + j + " = " + (h.direction() == Param.Direction.IN
                    ? sup + ".handles($$frame, $$in, " + j + ");" : sup + ".slots($$frame, " + j + ");"));
            case Mapping.ScalarArray a when a.terminated() ->
                    s.line("MemorySegment $" + j + " = " + sup + ".stageTerminated($$frame, " + j + ");");
            case Mapping.ScalarArray a -> {
                if (f.heapInPlace()) {
                    s.line("MemorySegment $" + j + " = " + j + " == null ? MemorySegment.NULL : MemorySegment.ofArray(" + j + ");");
                } else {
                    s.line("MemorySegment $" + j + " = " + sup + (a.direction() == Param.Direction.OUT ? ".stageOut" : ".stageIn")
                            + "($$frame, " + j + ");");
                }
            }
            case Mapping.Errcode e -> {
                long success = plan.conventions().stream().filter(c -> c.checkMethod().equals(e.checkMethod()))
                        .findFirst().orElseThrow().success().getFirst();
                String layout = Carriers.valueLayout(e.kind());
                String value = switch (Carriers.primitive(e.kind())) {
                    case "byte" -> "(byte) " + success;
                    case "short" -> "(short) " + success;
                    case "int" -> success >= Integer.MIN_VALUE && success <= Integer.MAX_VALUE ? Long.toString(success)
                            : "(int) " + success + "L";
                    default -> success + "L";
                };
                s.line("MemorySegment $" + j + " = $$frame.allocateFrom(" + layout + ", " + value + ");");
            }
            case Mapping.ReturnedOut r -> {
                String layout = switch (r.out()) {
                    case Out.Scalar sc -> Carriers.valueLayout(sc.kind());
                    case Out.Struct st -> st.structClass() + ".LAYOUT";
                    default -> "ValueLayout.ADDRESS";
                };
                s.line("MemorySegment $" + j + " = $$frame.allocateZeroed(" + layout + ", 1);");
            }
            default -> { }
        }
    }

    private static String argument(BindingPlan plan, TypedParam p) {
        String j = p.javaName();
        return switch (p.mapping()) {
            case Mapping.Value v -> v.bool() ? truthValue(v.kind(), j) : j;
            case Mapping.DerivedLength dl -> "$" + j;
            case Mapping.HandleValue h -> "MemorySegment.ofAddress(CallGuard.use($$in, " + j + "))";
            case Mapping.StructValue sv -> j + ".segment()";
            case Mapping.StructPointer sp -> j + " == null ? MemorySegment.NULL : " + j + ".segment()";
            case Mapping.CallbackValue cb -> "$" + j + " == 0 ? MemorySegment.NULL : " + cb.callbackClass() + ".registry().stub()";
            case Mapping.UserData ud -> {
                String id = "$" + ud.callbackParam();
                yield switch (ud.carrier()) {
                    case "MemorySegment" -> "CallbackRegistry.userData(" + id + ")";
                    case "long" -> "(long) " + id;
                    default -> id;
                };
            }
            case Mapping.Segment sg -> sg.nullable() ? j + " == null ? MemorySegment.NULL : " + j : j;
            default -> "$" + j;
        };
    }

    /** A Java {@code boolean} as the integer C takes: 1 or 0 in the carrier of {@code kind}. */
    private static String truthValue(ScalarKind kind, String j) {
        return switch (Carriers.primitive(kind)) {
            case "long" -> "(" + j + " ? 1L : 0L)";
            case "int" -> "(" + j + " ? 1 : 0)";
            case "boolean" -> j;
            default -> "(" + Carriers.primitive(kind) + ") (" + j + " ? 1 : 0)";
        };
    }

    /** The argument for a parameter passed as an address ({@link ByAddressClassWriter#addresses}): a {@code long}. */
    private static String address(BindingPlan plan, TypedParam p) {
        String j = p.javaName();
        return switch (p.mapping()) {
            case Mapping.HandleValue h -> "CallGuard.use($$in, " + j + ")";
            case Mapping.CallbackValue cb -> "$" + j + " == 0 ? 0L : " + cb.callbackClass() + ".registry().stub().address()";
            case Mapping.UserData ud -> "(long) $" + ud.callbackParam();
            // scratch memory staged above (NULL for a null argument)
            default -> "$" + j + ".address()";
        };
    }

    private static void copyBack(Source s, BindingPlan plan, TypedFunction f, TypedParam p) {
        String j = p.javaName();
        switch (p.mapping()) {
            case Mapping.ScalarArray a when !f.heapInPlace() && a.direction() != Param.Direction.IN ->
                    s.line("Staging.copyBack($" + j + ", " + j + ", " + (a.fixed() > 0 ? a.fixed() : -1) + ");");
            case Mapping.HandleArray h when h.direction() != Param.Direction.IN -> {
                // one call (the wrapping method as a constant method reference) keeps the typed method small
                String wrap = h.handleClass() + (h.owned() ? "::owned" : "::borrowed");
                s.line("Staging.handlesBack($" + j + ", " + j + ", " + (h.fixed() > 0 ? Integer.toString(h.fixed()) : "-1") + ", " + wrap + ");");
            }
            default -> { }
        }
    }

    private static void result(Source s, BindingPlan plan, TypedFunction f) {
        switch (f.result()) {
            case Result.Void v -> { }
            case Result.Scalar sc -> s.line(sc.bool() ? "return $$result != 0;" : "return $$result;");
            case Result.Address a when a.length() != null -> {
                TypedParam length = f.params().stream().filter(p -> p.decl().name().equals(a.length())).findFirst().orElseThrow();
                ScalarKind kind = switch (length.mapping()) {
                    case Mapping.Value v -> v.kind();
                    case Mapping.DerivedLength dl -> dl.kind();
                    default -> throw new IllegalStateException("length " + a.length() + " of " + f.name() + " is not an integer");
                };
                // unsigned counts zero-extended, as C sees them
                String count = switch (kind) {
                    case U8, U16, U32 -> Carriers.toLong(kind, argument(plan, length));
                    default -> argument(plan, length);      // Java widens a signed int or long itself
                };
                String bytes = a.elementBytes() == 1 ? count : "Math.multiplyExact(" + count + ", " + a.elementBytes() + "L)";
                s.line("return $$result.address() == 0 ? MemorySegment.NULL : $$result.reinterpret(" + bytes + ");");
            }
            case Result.Address a -> s.line("return $$result;");
            case Result.CString cs -> s.line("return Staging.string($$result);");
            case Result.Handle h -> s.line("return " + h.handleClass() + (h.owned() ? ".owned($$result);" : ".borrowed($$result);"));
            case Result.Struct st -> s.line("return " + st.structClass() + ".wrap($$result);");
            case Result.Outs o -> {
                List<String> values = new ArrayList<>();
                for (TypedParam p : f.params()) {
                    if (p.mapping() instanceof Mapping.ReturnedOut r) values.add(outValue(r.out(), "$" + p.javaName()));
                }
                s.line("return " + (f.resultRecord() == null ? values.getFirst()
                        : "new " + f.resultRecord() + "(" + String.join(", ", values) + ")") + ";");
            }
        }
    }

    private static String outValue(Out out, String segment) {
        return switch (out) {
            case Out.Scalar sc -> segment + ".get(" + Carriers.valueLayout(sc.kind()) + ", 0)" + (sc.bool() ? " != 0" : "");
            case Out.Handle h -> h.handleClass() + (h.owned() ? ".owned(" : ".borrowed(") + segment + ".get(ValueLayout.ADDRESS, 0))";
            case Out.Struct st -> st.structClass() + ".allocate(Arena.ofAuto()).copyFrom(" + st.structClass() + ".wrap(" + segment + "))";
            case Out.Address a -> segment + ".get(ValueLayout.ADDRESS, 0)";
        };
    }
}
