package dev.panamax.opencl;

import dev.panamax.opencl.binding.CLApi;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.CodeAttribute;
import java.lang.reflect.AccessFlag;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every method of the generated typed layer is small enough in bytecode for HotSpot's C2 to inline
 * it into a hot caller (its {@code FreqInlineSize}, 325 bytes, on every platform). A method over the
 * limit is compiled apart and called: the caller's constant arguments (null event lists, a work
 * dimension of 1) no longer fold into it, and the call and its checks cost what inlining would have
 * saved on every dispatch. The generator keeps methods small by moving argument checks to a private
 * method of their own, which is itself inlined.
 */
class TypedMethodSizeTest {
    private static final int FREQ_INLINE_SIZE = 325;

    @Test
    void everyTypedMethodFitsTheHotInliningSize() throws IOException {
        ClassModel model;
        try (InputStream in = CLApi.class.getResourceAsStream("CLApi.class")) {
            assertNotNull(in, "CLApi.class not found next to CLApi");
            model = ClassFile.of().parse(in.readAllBytes());
        }
        List<String> tooBig = new ArrayList<>();
        int methods = 0;
        for (MethodModel m : model.methods()) {
            CodeAttribute code = m.findAttribute(java.lang.classfile.Attributes.code()).orElse(null);
            if (code == null) continue;
            methods++;
            int size = code.codeLength();
            if (size > FREQ_INLINE_SIZE) tooBig.add(m.methodName().stringValue() + m.methodType().stringValue() + " " + size + " bytes");
        }
        assertTrue(methods > 150, "expected the whole typed layer, found " + methods + " methods");
        assertTrue(tooBig.isEmpty(), "typed methods over " + FREQ_INLINE_SIZE + " bytes of bytecode: " + tooBig);
        assertTrue(model.methods().stream().anyMatch(m -> m.methodName().stringValue().startsWith("$$check$")
                        && m.flags().has(AccessFlag.PRIVATE)),
                "expected argument checks moved to private methods");
    }
}
