package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.Param;
import dev.panamax.bindgen.decl.Returns;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.gen.Bindgen;
import dev.panamax.core.abi.ScalarKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Importing again into a file that uses every annotation the declarations format has keeps each of
 * them: the file comes back byte for byte, and a header change adds to it without dropping any.
 */
class ReimportAnnotationsTest {
    /**
     * annotated.h imported, then annotated with every key a person may add: the leading comment,
     * sonames, package, class, errors; boolean (alias); retain, release (handle); align and a more
     * precise field type (struct); user_data, calls and a long-form parameter (callback); status,
     * ownership, length (returns); dir, length (a parameter, a count, an expression), terminated,
     * nullable, errcode, ownership, elements, async_unless (parameters); tier, batchable, blocking,
     * requires (functions).
     */
    static final String ANNOTATED = """
            # an: annotated by hand.
            format: 1
            library: an
            sonames: ["liban.so.1", an]
            package: org.example.annotated
            class: AnLib
            headers: ["annotated.h"]

            types:
              an_ctx: {handle: opaque, retain: an_retain, release: an_close}
              an_bool: {type: u32, boolean: true}
              an_point: {struct: [[f32, x], [f32, y]], align: 8}
              an_blob: {struct: [[u8*, data], [i32, size]]}
              an_done:
                callback: {params: [[ptr, user_data], [i32, status]], calls: once}
              an_notify:
                callback: {params: [[ptr, ctx], {name: message, type: char*, nullable: true}], user_data: ctx}

            errors:
              an_status:
                type: i32
                success: [0]
                names: {-2: AN_EBUSY, -1: AN_EFAIL}

            functions:
              - name: an_open
                returns: {type: an_ctx, ownership: owned}
                params:
                  - {name: name, type: char*, nullable: true}
                  - {name: err, type: i32*, dir: out, errcode: an_status}
              - name: an_retain
                params:
                  - [an_ctx, c]   # annotate: nullable
                batchable: true
              - name: an_close
                params:
                  - [an_ctx, c]   # annotate: nullable
              - name: an_read
                returns: {type: i32, status: an_status}
                params:
                  - [an_ctx, c]   # annotate: nullable
                  - {name: dst, type: ptr, dir: out, length: size, elements: [f32, i32], async_unless: blocking}
                  - [size_t, size]
                  - [an_bool, blocking]
                blocking: true
              - name: an_fill
                returns: {type: i32, status: an_status}
                params:
                  - [an_ctx, c]   # annotate: nullable
                  - {name: values, type: f32*, dir: out, length: "1 + (count - 1) * abs(inc)"}
                  - [i32, count]
                  - [i32, inc]
                requires:
                  - "count >= 1"
              - name: an_data
                returns: {type: f32*, length: count}
                params:
                  - [an_ctx, c]   # annotate: nullable
                  - [i32, count]
              - name: an_list
                returns: i32   # annotate: status
                params:
                  - {name: ids, type: i32*, terminated: true}
              - name: an_when
                params:
                  - [an_ctx, c]   # annotate: nullable
                  - [an_done, done]   # annotate: nullable
                  - [ptr, user_data]   # annotate: dir, length, nullable
              - name: an_watch
                params:
                  - [an_ctx, c]   # annotate: nullable
                  - {name: notify, type: an_notify, nullable: true}
                  - [ptr, ctx]   # annotate: dir, length, nullable
              - name: an_get
                returns: {type: i32, status: an_status}
                params:
                  - [an_ctx, c]   # annotate: nullable
                  - {name: out, type: an_ctx*, dir: out, length: 1, ownership: owned}
              - name: an_sum
                returns: i32   # annotate: status
                params:
                  - [an_ctx, c]   # annotate: nullable
                  - {name: values, type: f32*, length: n}
                  - [i32, n]
                tier: critical_heap
              - name: an_mid
                returns: an_point
                params:
                  - [an_point, a]
                  - [an_point, b]
                tier: critical
              - name: an_blob_size
                returns: i32   # annotate: status
                params:
                  - [an_blob, b]
            """;

    @TempDir
    Path dir;

    private ImportOptions options(Path header) {
        return new ImportOptions(List.of(header), "an", List.of(), List.of(), null, "org.example.an");
    }

    @Test
    void everyAnnotationSurvivesImportingTheSameHeaderAgain() throws IOException {
        Path h = dir.resolve("annotated.h");
        Files.copy(HeaderImportTest.header("annotated.h"), h);
        Path out = dir.resolve("an.yaml");
        HeaderImport.run(options(h), out);
        Files.writeString(out, ANNOTATED);
        Bindgen.generate(DeclarationsParser.parse(out));   // the annotated file is a valid, usable one

        HeaderImport.Result r = HeaderImport.run(options(h), out);
        assertNull(r.problem());
        assertTrue(r.changes().isEmpty(), r.changes().lines().toString());
        assertEquals(ANNOTATED, Files.readString(out));
    }

    @Test
    void aHeaderChangeKeepsTheAnnotationsOfWhatItDidNotChange() throws IOException {
        Path h = dir.resolve("annotated.h");
        Files.copy(HeaderImportTest.header("annotated.h"), h);
        Path out = dir.resolve("an.yaml");
        Files.writeString(out, ANNOTATED);
        // a new function, and a new struct the format refuses (its callback takes it by value) with a function using it
        Files.writeString(h, Files.readString(h).replace("int an_blob_size(an_blob b);", "int an_blob_size(an_blob b);\n"
                + "int an_count(an_ctx *c);\nstruct an_rec { int (*same)(struct an_rec r); };\nvoid an_rec_use(struct an_rec *r);"));

        HeaderImport.Result r = HeaderImport.run(options(h), out);
        assertNull(r.problem());
        assertEquals(List.of("+ function an_count"), r.changes().lines());
        assertEquals(List.of("an_rec", "an_rec_same", "an_rec_use"), r.skipped().stream().map(Skipped::name).sorted().toList());
        Declarations d = DeclarationsParser.parse(out);
        assertEquals(List.of("liban.so.1", "an"), d.sonames());
        assertEquals("org.example.annotated", d.javaPackage());
        assertEquals("AnLib", d.className());
        assertEquals(List.of(0L), d.errors().get("an_status").success());
        assertTrue(((TypeDecl.Alias) d.types().get("an_bool")).bool());
        TypeDecl.Handle ctx = (TypeDecl.Handle) d.types().get("an_ctx");
        assertEquals("an_retain", ctx.retain());
        assertEquals("an_close", ctx.release());
        assertEquals(8, ((TypeDecl.Struct) d.types().get("an_point")).align());
        assertEquals("u8*", ((TypeDecl.Struct) d.types().get("an_blob")).fields().getFirst().type().spelling());
        assertEquals(TypeDecl.Callback.Calls.ONCE, ((TypeDecl.Callback) d.types().get("an_done")).calls());
        TypeDecl.Callback notify = (TypeDecl.Callback) d.types().get("an_notify");
        assertEquals("ctx", notify.userData());
        assertTrue(notify.params().get(1).nullable());

        Returns open = function(d, "an_open").returns();
        assertEquals(Returns.Ownership.OWNED, open.ownership());
        assertTrue(param(d, "an_open", "name").nullable());
        assertEquals("an_status", param(d, "an_open", "err").errcode());
        assertTrue(function(d, "an_retain").batchable());
        Function read = function(d, "an_read");
        assertEquals("an_status", read.returns().status());
        assertEquals(Boolean.TRUE, read.blocking());
        Param dst = param(d, "an_read", "dst");
        assertEquals(Param.Direction.OUT, dst.direction());
        assertEquals("size", dst.length());
        assertEquals(List.of(ScalarKind.F32, ScalarKind.I32), dst.elements());
        assertEquals("blocking", dst.asyncUnless());
        assertEquals("1 + (count - 1) * abs(inc)", param(d, "an_fill", "values").expression().text());
        assertEquals("count >= 1", function(d, "an_fill").requires().getFirst().text());
        assertEquals("count", function(d, "an_data").returns().length());
        assertTrue(param(d, "an_list", "ids").terminated());
        assertTrue(param(d, "an_watch", "notify").nullable());
        Param got = param(d, "an_get", "out");
        assertEquals(1, got.count());
        assertEquals(Returns.Ownership.OWNED, got.ownership());
        assertEquals(Function.Tier.CRITICAL_HEAP, function(d, "an_sum").tier());
        assertEquals(Function.Tier.CRITICAL, function(d, "an_mid").tier());
        assertTrue(d.function("an_count").isPresent());
        assertTrue(Files.readString(out).startsWith("# an: annotated by hand.\n"));
    }

    private static Function function(Declarations d, String name) {
        return d.function(name).orElseThrow();
    }

    private static Param param(Declarations d, String function, String name) {
        return function(d, function).params().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }
}
