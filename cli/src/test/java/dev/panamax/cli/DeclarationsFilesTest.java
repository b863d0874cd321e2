package dev.panamax.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenCL and CBLAS declarations files, checked as data against the format's keys and against
 * the real libraries (libOpenCL.so.1, libopenblas.so.0). A sanity check only: bindgen's parser and
 * the code it generates are the real validation.
 */
class DeclarationsFilesTest {
    private static final Path OPENCL = repoFile("opencl/src/main/decl/opencl.yaml");
    private static final Path CBLAS = repoFile("blas/src/main/decl/cblas.yaml");
    private static final Set<String> OBJECTS = Set.of("Device", "Context", "CommandQueue", "MemObject", "Program", "Kernel", "Event", "Sampler");

    @Test
    void openclFileIsWellFormed() throws IOException {
        DeclarationsSanity d = load(OPENCL);
        assertEquals(List.of(), d.problems);
        assertTrue(d.functions.size() >= 80, "functions=" + d.functions.size() + " expected>=80");
        assertEquals("libOpenCL.so.1", ((List<?>) d.top.get("sonames")).getFirst());
    }

    @Test
    void openclCoversTheCoreApi() throws IOException {
        DeclarationsSanity d = load(OPENCL);
        for (String name : List.of("clGetPlatformIDs", "clGetPlatformInfo", "clGetDeviceIDs", "clGetDeviceInfo", "clCreateContext",
                "clCreateCommandQueueWithProperties", "clCreateBuffer", "clCreateSubBuffer", "clCreateProgramWithSource",
                "clBuildProgram", "clGetProgramInfo", "clGetProgramBuildInfo", "clCreateKernel", "clSetKernelArg",
                "clEnqueueNDRangeKernel", "clEnqueueReadBuffer", "clEnqueueWriteBuffer", "clEnqueueCopyBuffer",
                "clEnqueueFillBuffer", "clEnqueueMapBuffer", "clEnqueueUnmapMemObject", "clEnqueueMarkerWithWaitList",
                "clEnqueueBarrierWithWaitList", "clWaitForEvents", "clGetEventInfo", "clGetEventProfilingInfo",
                "clSetEventCallback", "clFlush", "clFinish")) {
            d.function(name);
        }
        for (String object : OBJECTS) {
            d.function("clRetain" + object);
            d.function("clRelease" + object);
        }
        // every object type but the platform is a handle with its retain and release
        for (String handle : List.of("cl_device_id", "cl_context", "cl_command_queue", "cl_mem", "cl_program", "cl_kernel", "cl_event", "cl_sampler")) {
            Map<?, ?> t = (Map<?, ?>) d.types.get(handle);
            assertEquals("opaque", t.get("handle"), handle);
            assertTrue(t.containsKey("retain") && t.containsKey("release"), handle + " " + t);
        }
    }

    @Test
    void openclStatusConventionNamesEveryErrorCode() throws IOException {
        DeclarationsSanity d = load(OPENCL);
        Map<?, ?> status = (Map<?, ?>) d.errors.get("cl_status");
        assertEquals(List.of(0), status.get("success"));
        Map<?, ?> names = (Map<?, ?>) status.get("names");
        assertEquals("CL_DEVICE_NOT_FOUND", names.get(-1));
        assertEquals("CL_INVALID_KERNEL_ARGS", names.get(-52));
        assertEquals("CL_MAX_SIZE_RESTRICTION_EXCEEDED", names.get(-72));
        // OpenCL 3.0 defines -1..-19 and -30..-72, with no gaps
        for (int code = -1; code >= -72; code--) {
            if (code <= -20 && code >= -29) continue;
            assertTrue(names.containsKey(code), "no name for code " + code);
        }
        for (DeclarationsSanity.Fn f : d.functions) {
            if (f.returnType().equals("cl_int")) assertEquals("cl_status", f.returnStatus(), f.name() + " returns an unchecked cl_int");
            for (Map<String, Object> p : f.params()) {
                if (p.get("name").equals("errcode_ret")) assertEquals("cl_status", p.get("errcode"), f.name());
            }
        }
    }

    @Test
    void openclTiersFollowWhatEachCallMayDo() throws IOException {
        DeclarationsSanity d = load(OPENCL);
        for (String cheap : List.of("clSetKernelArg", "clGetDeviceInfo", "clGetEventInfo", "clRetainEvent")) {
            assertEquals("critical", d.function(cheap).tier(), cheap);
        }
        for (String mayBlock : List.of("clFinish", "clWaitForEvents", "clBuildProgram", "clEnqueueReadBuffer")) {
            assertEquals("standard", d.function(mayBlock).tier(), mayBlock);
            assertTrue(d.function(mayBlock).blocking(), mayBlock + " is not marked blocking");
        }
        for (String batched : List.of("clSetKernelArg", "clEnqueueNDRangeKernel", "clFinish")) {
            assertTrue(d.function(batched).batchable(), batched);
        }
        // a critical call must never run an upcall: any function taking a callback stays standard
        Set<String> callbackTypes = new TreeSet<>();
        d.types.forEach((k, v) -> { if (v instanceof Map<?, ?> m && m.containsKey("callback")) callbackTypes.add(k); });
        assertFalse(callbackTypes.isEmpty());
        for (DeclarationsSanity.Fn f : d.functions) {
            boolean takesCallback = f.params().stream().anyMatch(p -> callbackTypes.contains(String.valueOf(p.get("type"))));
            if (takesCallback) assertEquals("standard", f.tier(), f.name() + " takes a callback");
        }
    }

    @Test
    void everyOpenclFunctionIsExportedByTheIcdLoader() throws IOException {
        assertEquals(List.of(), load(OPENCL).missingSymbols());
    }

    @Test
    void cblasFileIsWellFormedAndComplete() throws IOException {
        DeclarationsSanity d = load(CBLAS);
        assertEquals(List.of(), d.problems);
        for (String op : List.of("axpy", "dot", "nrm2", "scal", "gemv", "gemm")) {
            for (String prefix : List.of("s", "d")) {
                assertEquals("critical_heap", d.function("cblas_" + prefix + op).tier(), prefix + op);
            }
        }
        for (String c : List.of("CblasRowMajor", "CblasColMajor", "CblasNoTrans", "CblasTrans", "CblasUpper", "CblasLower",
                "CblasNonUnit", "CblasUnit", "CblasLeft", "CblasRight")) {
            assertTrue(d.constants.containsKey(c), c);
        }
        assertEquals(101, d.constants.get("CblasRowMajor"));
        assertEquals(111, d.constants.get("CblasNoTrans"));
    }

    @Test
    void everyCblasFunctionIsExportedByOpenBlas() throws IOException {
        assertEquals(List.of(), load(CBLAS).missingSymbols());
    }

    @Test
    void theCheckFindsWhatIsWrong() {
        String bad = """
                format: 1
                library: broken
                sonames: [libOpenCL.so.1]
                package: org.example
                class: Broken
                colour: blue
                types:
                  h: {handle: opaque, release: noSuchRelease}
                errors:
                  st: {type: i32, success: [0]}
                functions:
                  - name: clFinish
                    returns: {type: i32, status: nope}
                    params:
                      - [cl_command_queue, queue]
                      - {name: buf, type: u8*, length: len}
                    tier: critical
                    blocking: true
                  - name: clNoSuchFunction
                    params: [[i32, x]]
                    shiny: true
                """;
        DeclarationsSanity d = DeclarationsSanity.check("bad.yaml", bad);
        String all = String.join("\n", d.problems);
        for (String expected : List.of("unknown key 'colour'", "unknown type cl_command_queue", "names no declared error convention: nope",
                "length of buf in function clFinish names no parameter: len", "blocking on tier critical",
                "unknown key 'shiny'", "release of handle h names no declared function: noSuchRelease")) {
            assertTrue(all.contains(expected), "expected a problem containing <" + expected + "> in:\n" + all);
        }
        assertEquals(List.of("clNoSuchFunction"), d.missingSymbols());
    }

    private static DeclarationsSanity load(Path file) throws IOException {
        return DeclarationsSanity.check(file.toString(), Files.readString(file));
    }

    /** A file of the repository, found from the module directory the tests run in. */
    private static Path repoFile(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(relative);
            if (Files.isRegularFile(candidate)) return candidate;
        }
        throw new IllegalStateException("not found above " + Path.of("").toAbsolutePath() + ": " + relative);
    }
}
