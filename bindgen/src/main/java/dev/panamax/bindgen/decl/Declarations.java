package dev.panamax.bindgen.decl;

import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CType;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed and validated declarations file (format 1): one native library, its named types,
 * constants, error conventions and functions. Every type reference in it resolves (no unknown or
 * recursive types), so {@link #cFunction} and {@link #resolve} cannot fail on a parsed file.
 *
 * @param file       where it was read from (for messages)
 * @param format     the format version (1)
 * @param library    logical library name
 * @param sonames    names or paths tried in order to load the library
 * @param javaPackage Java package of generated code, or null
 * @param className  Java class of the raw layer (default: the library name, capitalized)
 * @param types      named types in file order
 * @param constants  constants in file order
 * @param errors     error conventions in file order
 * @param functions  functions in file order
 * @param headers    the C headers the library is declared in ({@code headers:}): every binding is checked
 *                   against them when generated (a path relative to the file, an absolute path, or
 *                   {@code <name.h>} on the compiler's include path)
 */
public record Declarations(String file, int format, String library, List<String> sonames, String javaPackage,
                           String className, Map<String, TypeDecl> types, Map<String, Constant> constants,
                           Map<String, ErrorConvention> errors, List<Function> functions, List<String> headers) {
    /** A file without {@code headers}. */
    public Declarations(String file, int format, String library, List<String> sonames, String javaPackage,
                        String className, Map<String, TypeDecl> types, Map<String, Constant> constants,
                        Map<String, ErrorConvention> errors, List<Function> functions) {
        this(file, format, library, sonames, javaPackage, className, types, constants, errors, functions, List.of());
    }

    public Declarations {
        sonames = List.copyOf(sonames);
        headers = List.copyOf(headers);
        types = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(types));
        constants = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(constants));
        errors = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(errors));
        functions = List.copyOf(functions);
    }

    /** The function declared as {@code name}. */
    public Optional<Function> function(String name) {
        return functions.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    /** The core C type of a reference in this file. */
    public CType resolve(TypeRef ref) {
        return new TypeResolver(file, types).resolve(ref, new Location(file, 0, 0), TypeResolver.Use.RETURN);
    }

    /** The core C type of the named type {@code name}. */
    public CType resolveType(String name) {
        return resolve(new TypeRef.Named(name));
    }

    /** The core model of function {@code f}: its symbol and C function type. */
    public CFunction cFunction(Function f) {
        return new CFunction(f.name(), new TypeResolver(file, types).functionType(f.returns().type(), f.params(),
                f.returns().location()));
    }

    /**
     * The rule a batch checks {@code f}'s result with, from its {@code returns: {status: ...}}
     * convention; empty when it declares none. See {@link StatusRules}.
     *
     * @throws DeclarationsException when the convention cannot be checked by a batch (success codes
     *                               not one contiguous range, or not values of the return type)
     */
    public Optional<dev.panamax.core.batch.StatusRule> statusRule(Function f) {
        return StatusRules.of(this, f);
    }

    /** The functions marked {@code batchable}, as core functions. */
    public List<CFunction> batchableFunctions() {
        return functions.stream().filter(Function::batchable).map(this::cFunction).toList();
    }
}
