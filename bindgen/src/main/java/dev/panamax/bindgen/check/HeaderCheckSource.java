package dev.panamax.bindgen.check;

import dev.panamax.bindgen.decl.Constant;
import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.Field;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.Location;
import dev.panamax.bindgen.decl.Param;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.decl.TypeRef;
import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.ScalarKind;

import java.util.ArrayList;
import java.util.List;

/**
 * The source that checks a declarations file against its C headers: one compile-time assertion per
 * fact the file states (a function exists and takes so many parameters; each parameter's and
 * result's type; each struct's size, alignment and field offsets; each constant's value), compiled
 * by gcc's C++ front end because C cannot name a function's parameter types and C++ templates can
 * ({@code decltype(&f)} matched against {@code R (*)(A...)}). Types are compared as the ABI sees
 * them: integers by size (a sign difference passes), floating types by size, every pointer as a
 * pointer, a struct by value by size and alignment.
 */
final class HeaderCheckSource {
    /** One assertion: what it checks, where the file states it, and the type the file declares. */
    record Check(int id, String what, Location location, String declared) {}

    /** The source and its checks; check {@code i} is asserted on line {@code lines.get(i)}. */
    record Unit(String source, List<Check> checks, List<Integer> lines) {}

    private static final String PRELUDE = """
            #include <type_traits>
            #include <tuple>
            #include <cstddef>
            namespace pmx {
            template<class T> constexpr int kind() {
                using U = std::remove_cv_t<T>;
                if constexpr (std::is_void_v<U>) return 0;
                else if constexpr (std::is_pointer_v<U> || std::is_null_pointer_v<U>) return 100;
                else if constexpr (std::is_array_v<U>) return 200;
                else if constexpr (std::is_enum_v<U>) return kind<std::underlying_type_t<U>>();
                else if constexpr (std::is_same_v<U, bool>) return 1;
                else if constexpr (std::is_integral_v<U>) return 10 + (int) sizeof(U);
                else if constexpr (std::is_floating_point_v<U>) return 40 + (int) sizeof(U);
                else return 300;
            }
            template<class F> struct fn { static constexpr int n = -1; };
            template<class R, class... A> struct fn<R (*)(A...)> {
                using ret = R;
                template<int I> using arg = std::tuple_element_t<I, std::tuple<A...>>;
                static constexpr int n = sizeof...(A);
            };
            template<class R, class... A> struct fn<R (*)(A..., ...)> { static constexpr int n = -2; };
            template<int Check, int Declared, class Real> struct type {
                static_assert(kind<Real>() == Declared, "the declared type differs from the header's");
            };
            template<int Check, long Size, long Align, class Real> struct layout {
                static_assert(sizeof(Real) == Size && alignof(Real) == Align, "the declared layout differs from the header's");
            };
            }
            """;

    private final Declarations d;
    private final java.util.Set<String> nested;
    private final StringBuilder out = new StringBuilder();
    private final List<Check> checks = new ArrayList<>();
    private final List<Integer> lines = new ArrayList<>();
    private int line;

    private HeaderCheckSource(Declarations d, java.util.Set<String> nested) {
        this.d = d;
        this.nested = nested;
    }

    /**
     * The check of {@code d} against {@code includes} (each an {@code #include} operand: {@code <x.h>} or
     * {@code "/abs/x.h"}); the structs named in {@code nested} are named through a field of the struct
     * they are declared in (in C++ a struct declared inside another is the outer one's member).
     */
    static Unit of(Declarations d, List<String> includes, java.util.Set<String> nested) {
        return new HeaderCheckSource(d, nested).unit(includes);
    }

    /** The struct names of {@code checks} that C++ did not find as written. */
    static java.util.Set<String> unnamed(List<Check> checks, java.util.Map<Integer, String> failures) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (var e : failures.entrySet()) {
            String what = checks.get(e.getKey()).what();
            if ((what.startsWith("struct ") || what.startsWith("union ")) && (e.getValue().contains("not declared")
                    || e.getValue().contains("does not name a type"))) {
                out.add(what.split(" ")[1]);
            }
        }
        return out;
    }

    private Unit unit(List<String> includes) {
        emit("// MACHINE GENERATED FILE, DO NOT EDIT: panamax bindgen checks " + d.file() + " against its headers");
        emit("#define restrict __restrict");
        emit("extern \"C\" {");
        for (String i : includes) emit("#include " + i);
        emit("}");
        for (String l : PRELUDE.split("\n")) emit(l);
        for (Function f : d.functions()) function(f);
        for (TypeDecl t : d.types().values()) {
            if (t instanceof TypeDecl.Struct s) record(s.name(), "struct", s.fields(), s.location());
            if (t instanceof TypeDecl.Union u) record(u.name(), "union", u.fields(), u.location());
        }
        for (Constant c : d.constants().values()) constant(c);
        return new Unit(out.toString(), checks, lines);
    }

    private void emit(String text) {
        out.append(text).append('\n');
        line++;
    }

    private Check check(String what, Location at, String declared) {
        Check c = new Check(checks.size(), what, at, declared);
        checks.add(c);
        lines.add(line + 1);
        return c;
    }

    private void function(Function f) {
        String fn = "pmx::fn<decltype(&" + f.name() + ")>";
        Check exists = check("function " + f.name(), f.location(), f.params().size() + " parameters");
        emit("static_assert(" + fn + "::n == " + f.params().size() + ", \"check " + exists.id() + "\");");
        CType ret = d.resolve(f.returns().type());
        typeCheck("function " + f.name() + " result", f.returns().location(), f.returns().type(), ret, fn + "::ret");
        for (int i = 0; i < f.params().size(); i++) {
            Param p = f.params().get(i);
            typeCheck("function " + f.name() + " parameter " + (i + 1) + " (" + p.name() + ")", p.location(), p.type(),
                    d.resolve(p.type()), "typename " + fn + "::template arg<" + i + ">");
        }
    }

    private void typeCheck(String what, Location at, TypeRef declared, CType type, String real) {
        Check c = check(what, at, declared.spelling());
        if (type instanceof CType.Aggregate a) {
            emit("template struct pmx::layout<" + c.id() + ", " + a.size() + ", " + a.align() + ", " + real + ">;");
        } else {
            emit("template struct pmx::type<" + c.id() + ", " + kind(type) + ", " + real + ">;");
        }
    }

    /** The code {@code pmx::kind} gives the C type {@code t} declares. */
    static int kind(CType t) {
        return switch (t) {
            case CType.Void v -> 0;
            case CType.Scalar s when s.kind() == ScalarKind.BOOL -> 1;
            case CType.Scalar s when s.kind().isFloatingPoint() -> 40 + s.kind().size();
            case CType.Scalar s -> 10 + s.kind().size();
            case CType.Pointer p -> 100;
            case CType.FunctionPointer p -> 100;
            case CType.Array a -> 200;
            default -> 300;
        };
    }

    private void record(String name, String kind, List<Field> fields, Location at) {
        CType.Aggregate a = (CType.Aggregate) d.resolveType(name);
        String type = cppName(name);
        Check c = check(kind + " " + name + " size", at, String.valueOf(a.size()));
        emit("static_assert(sizeof(" + type + ") == " + a.size() + ", \"check " + c.id() + "\");");
        c = check(kind + " " + name + " alignment", at, String.valueOf(a.align()));
        emit("static_assert(alignof(" + type + ") == " + a.align() + ", \"check " + c.id() + "\");");
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            if (kind.equals("struct")) {
                c = check(kind + " " + name + " field " + f.name() + " offset", f.location(), String.valueOf(a.offsetOf(i)));
                emit("static_assert(offsetof(" + type + ", " + f.name() + ") == " + a.offsetOf(i) + ", \"check " + c.id() + "\");");
            }
            CType ft = a.fields().get(i).type();
            c = check(kind + " " + name + " field " + f.name() + " size", f.location(), f.type().spelling() + ", " + ft.size() + " bytes");
            emit("static_assert(sizeof(decltype(" + type + "::" + f.name() + ")) == " + ft.size() + ", \"check " + c.id() + "\");");
            if (!(ft instanceof CType.Aggregate)) {
                typeCheck(kind + " " + name + " field " + f.name(), f.location(), f.type(), ft, "decltype(" + type + "::" + f.name() + ")");
            }
        }
    }

    /**
     * How C++ names a struct of the file: its own name, or, for an unnamed struct type of a field that
     * an import named {@code Outer_field}, {@code decltype(Outer::field)}.
     */
    private String cppName(String name) {
        if (nested.contains(name)) {
            for (TypeDecl t : d.types().values()) {
                List<Field> fields = t instanceof TypeDecl.Struct s ? s.fields() : t instanceof TypeDecl.Union u ? u.fields() : List.of();
                for (Field f : fields) {
                    TypeRef r = f.type();
                    String wrap = "";
                    while (r instanceof TypeRef.PointerTo p) {
                        r = p.target();
                        wrap = wrap + "std::remove_pointer_t<";
                    }
                    if (r instanceof TypeRef.ArrayOf a) {
                        r = a.element();
                        wrap = wrap + "std::remove_all_extents_t<";
                    }
                    if (r instanceof TypeRef.Named n && n.name().equals(name) && !t.name().equals(name)) {
                        return "std::remove_cv_t<" + wrap + "decltype(" + cppName(t.name()) + "::" + f.name() + ")"
                                + ">".repeat((int) wrap.chars().filter(c -> c == '<').count()) + ">";
                    }
                }
            }
        }
        for (TypeDecl t : d.types().values()) {
            List<Field> fields = t instanceof TypeDecl.Struct s ? s.fields() : t instanceof TypeDecl.Union u ? u.fields() : List.of();
            for (Field f : fields) {
                if (name.equals(t.name() + "_" + f.name()) && f.type() instanceof TypeRef.Named n && n.name().equals(name)) {
                    return "decltype(" + cppName(t.name()) + "::" + f.name() + ")";
                }
            }
        }
        return name;
    }

    private void constant(Constant c) {
        if (c.value() instanceof Double v && (v.isNaN() || v.isInfinite())) return;
        Check k = check("constant " + c.name(), c.location(), c.value().toString());
        String value = c.value() instanceof Double v ? Double.toString(v) : c.value() + "LL";
        if (c.value() instanceof Long v && v == Long.MIN_VALUE) value = "(-9223372036854775807LL - 1)";
        String left = c.value() instanceof Double ? "(double) (" + c.name() + ")" : "(" + c.name() + ")";
        emit("static_assert(" + left + " == " + value + ", \"check " + k.id() + "\");");
    }
}
