package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.decl.TypeRef;
import dev.panamax.bindgen.decl.TypeRefs;
import dev.panamax.core.abi.CType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Importing the Khronos {@code CL/cl.h} reproduces the hand-written {@code opencl.yaml}: the same
 * functions with the same C types, but for the differences the package documentation of {@code dev.panamax.opencl} explains.
 */
class OpenClImportTest {
    @Test
    void theImportOfClHHasTheFunctionsAndTypesOfOpenclYaml(@TempDir Path dir) {
        Declarations hand = DeclarationsParser.parse(Path.of("../opencl/src/main/decl/opencl.yaml"));
        Declarations imported = HeaderImport.run(new ImportOptions(List.of(Path.of("/usr/include/CL/cl.h")), "opencl",
                List.of(), List.of(), Pattern.compile("^(cl|CL_)"), "org.example.cl"), dir.resolve("cl.yaml")).declarations();

        Set<String> onlyHand = new TreeSet<>();
        Set<String> onlyImported = new TreeSet<>();
        List<String> differ = new ArrayList<>();
        List<String> refined = new ArrayList<>();
        for (Function f : hand.functions()) {
            Function g = imported.function(f.name()).orElse(null);
            if (g == null) {
                onlyHand.add(f.name());
                continue;
            }
            List<String> a = signature(hand, f);
            List<String> b = signature(imported, g);
            boolean same = a.size() == b.size();
            for (int i = 0; same && i < a.size(); i++) {
                // the header's void * takes any pointer a person names more precisely
                same = a.get(i).equals(b.get(i)) || b.get(i).equals("ptr") && a.get(i).endsWith("*");
                if (!a.get(i).equals(b.get(i)) && same) refined.add(f.name() + " " + (i == 0 ? "result" : f.params().get(i - 1).name()));
            }
            if (!same) differ.add(f.name() + ": " + a + " vs " + b);
        }
        for (Function g : imported.functions()) if (hand.function(g.name()).isEmpty()) onlyImported.add(g.name());

        assertEquals(List.of(), differ);
        // cl.h says const void *buffer_create_info; opencl.yaml says what it points to
        assertEquals(List.of("clCreateSubBuffer buffer_create_info"), refined);
        // cl_image_desc has an anonymous union: the import skips what takes it
        assertEquals(Set.of("clCreateImage", "clCreateImageWithProperties"), onlyHand);
        // deprecated in 1.1, 1.2 and 2.2: left out of the hand-written file on purpose
        assertEquals(Set.of("clCreateCommandQueue", "clCreateImage2D", "clCreateImage3D", "clCreateSampler",
                "clEnqueueBarrier", "clEnqueueMarker", "clEnqueueTask", "clEnqueueWaitForEvents",
                "clGetExtensionFunctionAddress", "clSetProgramReleaseCallback", "clUnloadCompiler"), onlyImported);
        // the same constants, with the same values (the hand file adds three of cl_ext.h)
        Set<String> constantsDiffer = new TreeSet<>();
        for (var c : hand.constants().values()) {
            var d = imported.constants().get(c.name());
            if (d == null || !d.value().equals(c.value())) constantsDiffer.add(c.name());
        }
        assertEquals(Set.of("CL_PLATFORM_NOT_FOUND_KHR", "CL_PLATFORM_ICD_SUFFIX_KHR", "CL_DEVICE_HALF_FP_CONFIG"), constantsDiffer);
    }

    /** A function's C types as the ABI sees them: handles and callbacks as pointers, aliases followed. */
    private static List<String> signature(Declarations d, Function f) {
        List<String> out = new ArrayList<>();
        out.add(kind(d, f.returns().type()));
        for (var p : f.params()) out.add(kind(d, p.type()));
        return out;
    }

    private static String kind(Declarations d, TypeRef t) {
        TypeRef r = TypeRefs.unalias(d.types(), t);
        if (r instanceof TypeRef.PointerTo p) return kind(d, p.target()) + "*";
        if (r instanceof TypeRef.AnyPointer || r instanceof TypeRef.CString) return "ptr";
        if (TypeRefs.declOf(d.types(), r) instanceof TypeDecl.Handle || TypeRefs.declOf(d.types(), r) instanceof TypeDecl.Callback) {
            return "ptr";
        }
        CType c = d.resolve(t);
        return c instanceof CType.Scalar s ? s.kind().declName().replace("u", "i").replace("size_t", "i64")
                : c instanceof CType.Aggregate a ? "struct" + a.size() : c.toString();
    }
}
