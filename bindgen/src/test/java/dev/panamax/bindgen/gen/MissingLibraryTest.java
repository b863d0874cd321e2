package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.call.LibraryNotFoundException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A binding of a library that is not installed loads and initializes its classes; every call, the
 * first and each later one, fails with the same {@link LibraryNotFoundException}, never an
 * {@link ExceptionInInitializerError} or a {@link NoClassDefFoundError} that would poison the class.
 */
class MissingLibraryTest {
    static final String YAML = """
            format: 1
            library: absent
            sonames: [panamax_no_such_library, libpanamax_no_such_library.so.7]
            package: org.example.absent
            types:
              ab_obj: {handle: opaque, release: ab_release}
            errors:
              ab_status: {type: i32, success: [0]}
            functions:
              - {name: ab_release, params: [[ab_obj, obj]]}
              - {name: ab_twice, returns: i32, params: [[i32, x]], tier: critical, batchable: true}
              - name: ab_fill
                returns: {type: i32, status: ab_status}
                params: [{name: values, type: f32*, dir: out, length: n}, [i32, n]]
            """;

    @Test
    void everyCallFailsWithTheSameLibraryNotFoundException(@TempDir Path tmp) throws Exception {
        Path yaml = tmp.resolve("absent.yaml");
        Files.writeString(yaml, YAML);
        Bindgen.Generation g = Bindgen.generate(DeclarationsParser.parse(yaml));
        InProcessCompiler.Outcome out = InProcessCompiler.compile(g.java(), tmp.resolve("classes"));
        assertTrue(out.ok(), () -> String.join("\n", out.errors()));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.classes().toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> raw = Class.forName("org.example.absent.Absent", true, loader);
            Class<?> typed = Class.forName("org.example.absent.AbsentApi", true, loader);
            Class<?> thunks = Class.forName("org.example.absent.AbsentThunks", true, loader);

            Method rawTwice = raw.getMethod("ab_twice", int.class);
            String first = libraryNotFound(() -> rawTwice.invoke(null, 1)).getMessage();
            assertTrue(first.contains("panamax_no_such_library"), first);
            assertEquals(first, libraryNotFound(() -> rawTwice.invoke(null, 1)).getMessage(), "the second call fails the same way");

            Method typedFill = typed.getMethod("ab_fill", float[].class);
            assertEquals(first, libraryNotFound(() -> typedFill.invoke(null, (Object) new float[4])).getMessage());
            assertEquals(first, libraryNotFound(() -> typedFill.invoke(null, (Object) new float[4])).getMessage());

            Object recorder = thunks.getField("ab_twice").get(null);
            try (Batch batch = Batch.create(BatchMode.STANDARD)) {
                Method record = recorder.getClass().getMethod("record", Batch.class, int.class);
                for (int i = 0; i < 2; i++) {
                    libraryNotFound(() -> record.invoke(recorder, batch, 1));
                }
            }
        }
    }

    interface Call {
        Object run() throws Exception;
    }

    /** What {@code call} threw through reflection: a {@link LibraryNotFoundException}, else the test fails. */
    private static LibraryNotFoundException libraryNotFound(Call call) {
        InvocationTargetException e = assertThrows(InvocationTargetException.class, call::run);
        if (e.getCause() instanceof LibraryNotFoundException l) return l;
        throw new AssertionError("expected LibraryNotFoundException, got " + e.getCause(), e.getCause());
    }
}
