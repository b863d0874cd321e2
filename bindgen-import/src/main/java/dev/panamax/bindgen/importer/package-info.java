/// Importing C headers into declarations with libclang, and checking bindings against them.
///
/// **libclang, bound by bindgen.** `bindgen-import/src/main/decl/libclang.yaml` declares the 65
/// functions of libclang's C API the importer uses (index, translation units, diagnostics, cursors and
/// their visitor, types and layouts, tokens, evaluation of initializers); `panamax-bindgen-maven-plugin`
/// generates the binding (`dev.panamax.bindgen.importer.clang`) in that module's build, as for OpenCL.
/// The importer calls the raw layer with one confined arena per translation unit for the by-value
/// structs (`CXCursor`, `CXType`, `CXString`), and one upcall stub for `clang_visitChildren` whose
/// handler collects a cursor's children into a list (copied out of the upcall's segment).
///
/// **Import** (`HeaderImport` → `HeaderReader` → `DeclarationsWriter`): the headers are included from
/// an in-memory main file and parsed once with the detailed preprocessing record; a second unit
/// declares `__auto_type pmx_macro_NAME = (NAME);` per object-like macro and lets clang evaluate each
/// (`clang_Cursor_Evaluate`), which covers `(1u << 4 | OTHER_MACRO)` and casts without an expression
/// evaluator of our own. Only the macros the file will hold are declared there, and each only after
/// `MacroSize` has counted, from the macro bodies (each tokenized once), the tokens it expands to: one
/// over 10,000 (`#define D30 (D29 + D29)`) is skipped unexpanded, so clang's work is linear in what is
/// written. A warning of that unit on a macro's line that says the value is not the expression's
/// (`-Winteger-overflow`, `-Wshift-count-overflow`, ...; found by the diagnostic's expansion location)
/// skips the macro instead of writing the wrapped number. Types are mapped where they are used; a
/// function pointer's signature is read from its type as written, not the canonical one, so parameters
/// keep their typedef names (a chain of 16 function pointer typedefs is 16 callbacks, not 2^16). A
/// construct the format cannot hold throws `Unsupported`, which skips the declaration using it with the
/// reason; after the import every struct's layout as the format computes it is compared with clang's
/// (`align:` added, packed structs skipped), and whatever uses a skipped type is pruned. The text is
/// parsed and planned (`Planner.plan`) before it is written: a declaration the parser or the planner
/// refuses (found by the line it starts on) is dropped and reported with what uses it, and the rest
/// written again, so one odd declaration never fails the file nor the generation from it.
/// `Reimport` merges a fresh import into an annotated file on the model: the header owns existence and
/// C types (compared by ABI: integer and float sizes, pointers as pointers), the file owns everything
/// else, its type order included. The file is written through `AtomicFile`.
///
/// **Header check** (`HeaderCheck`, `HeaderCheckSource` in bindgen): C has no way to name a function's
/// parameter types, so the check is C++ compiled by gcc (`g++ -std=gnu++17 -fsyntax-only`): the headers
/// inside `extern "C"`, then per function `pmx::fn<decltype(&f)>` (matched against `R (*)(A...)`) with
/// one explicit instantiation per result and parameter (`template struct pmx::type<ID, KIND, T>`,
/// whose `static_assert` compares ABI kinds: integer of N bytes, float of N bytes, pointer, struct of
/// size/alignment), per struct `sizeof`/`alignof`/`offsetof` and each field's size and kind, per
/// constant `(NAME) == VALUE`. Every assertion carries an id; the failures in g++'s output (the
/// instantiation line gives the header's real type, the "comparison reduces to" note the real size or
/// value) are mapped back to the declarations file's line. A struct declared inside another is, in
/// C++, the outer one's member: when C++ does not find such a name, a second run names it through the
/// field that uses it (`std::remove_pointer_t<decltype(sqlite3_index_info::aConstraint)>`). One g++
/// run checks OpenCL's 1,243 facts in about 2.5 s; an import of `vulkan_core.h` (578 functions, 777
/// structs) checks 20,615 facts in 7.9 s.
///
/// **libclang in the JVM.** `clang_createIndex` turns on LLVM's crash recovery, which installs its own
/// SIGSEGV handler over the JVM's; the JVM takes SIGSEGV for its implicit null checks, so the next one
/// killed the process. The importer switches crash recovery off right after creating the index
/// (`clang_toggleCrashRecovery(0)`), which puts the JVM's handlers back.
package dev.panamax.bindgen.importer;
