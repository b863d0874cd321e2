package dev.panamax.bindgen;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.decl.Param;
import dev.panamax.bindgen.decl.Returns;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.decl.TypeRef;
import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.Leaf;
import dev.panamax.core.abi.MetaAbi;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class DeclarationsParserTest {
    static String resource(String name) throws IOException {
        try (InputStream in = DeclarationsParserTest.class.getResourceAsStream("/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The contract's example uses cl_context and cl_status without declaring them; declared, it parses in full. */
    @Test
    void contractExampleParsesOnceItsTwoUndeclaredNamesAreDeclared() throws IOException {
        String text = resource("contract_example.yaml")
                .replace("types:", "types:\n  cl_context: {handle: opaque, ownership: borrowed}")
                .replace("errors:", "errors:\n  cl_status: {type: i32, success: [0]}");
        Declarations d = DeclarationsParser.parse(text, "zlib.yaml");
        assertEquals(1, d.format());
        assertEquals("zlib", d.library());
        assertEquals(List.of("z", "libz.so.1"), d.sonames());
        assertEquals("org.example.zlib", d.javaPackage());
        assertEquals("Zlib", d.className());
        assertEquals(0L, d.constants().get("Z_OK").value());
        assertEquals(-5L, d.constants().get("Z_BUF_ERROR").value());
        assertEquals("Z_BUF_ERROR", d.errors().get("z_status").names().get(-5L));
        assertEquals(List.of(0L), d.errors().get("z_status").success());

        assertEquals(new TypeRef.Primitive(dev.panamax.core.abi.ScalarKind.U64),
                ((TypeDecl.Alias) d.types().get("uLong")).target());
        assertEquals(8, d.resolveType("Point").size());
        CType.Struct rect = (CType.Struct) d.resolveType("Rect");
        assertEquals(16, rect.size());
        assertEquals(8, rect.offsetOf(1));
        assertEquals(4, d.resolveType("Value").size());
        assertEquals(16, d.resolveType("Pair").align());
        CType.Struct vec4 = (CType.Struct) d.resolveType("Vec4");
        assertEquals(new CType.Array(CType.F32, 4), vec4.fields().getFirst().type());
        assertEquals(CType.POINTER, d.resolveType("cl_mem"));
        assertInstanceOf(CType.FunctionPointer.class, d.resolveType("z_free_func"));
        TypeDecl.Handle mem = (TypeDecl.Handle) d.types().get("cl_mem");
        assertEquals("clReleaseMemObject", mem.release());

        Function crc = d.function("crc32").orElseThrow();
        assertEquals(Function.Tier.CRITICAL_HEAP, crc.tier());
        assertTrue(crc.batchable());
        assertEquals(new TypeRef.PointerTo(new TypeRef.Primitive(dev.panamax.core.abi.ScalarKind.U8)), crc.params().get(1).type());
        assertEquals(Leaf.STRUCT, MetaAbi.classify(d.cFunction(crc).type()).leaf());

        Function compress = d.function("compress2").orElseThrow();
        assertEquals("z_status", compress.returns().status());
        assertEquals(Param.Direction.OUT, compress.params().get(0).direction());
        assertEquals("destLen", compress.params().get(0).length());
        assertEquals(Param.Direction.INOUT, compress.params().get(1).direction());
        assertFalse(compress.batchable());

        Function create = d.function("clCreateBuffer").orElseThrow();
        assertEquals(Returns.Ownership.OWNED, create.returns().ownership());
        assertTrue(create.params().get(3).nullable());
        assertEquals("cl_status", create.params().get(4).errcode());
        assertEquals(Boolean.FALSE, create.blocking());
        assertEquals(Function.Tier.STANDARD, create.tier());
    }

    @Test
    void contractExampleVerbatimNamesItsUndeclaredType() throws IOException {
        DeclarationsException e = assertThrows(DeclarationsException.class,
                () -> DeclarationsParser.parse(resource("contract_example.yaml"), "zlib.yaml"));
        assertTrue(e.getMessage().startsWith("zlib.yaml:"), e.getMessage());
        assertTrue(e.getMessage().contains("unknown type 'cl_context'") || e.getMessage().contains("cl_status"), e.getMessage());
    }

    @Test
    void fixtureDeclarationsParse() throws IOException {
        Declarations d = DeclarationsParser.parse(resource("abi_fixtures.yaml"), "abi_fixtures.yaml");
        assertTrue(d.functions().size() >= 40);
        assertEquals(0x0123456789abcdefL, d.constants().get("FX_MAGIC").value());
        assertEquals(2.5, d.constants().get("FX_SCALE").value());
        assertEquals(Leaf.G, MetaAbi.classify(d.cFunction(d.function("fx_wrap").orElseThrow()).type()).leaf());
    }

    static final String HEAD = "format: 1\nlibrary: t\n";

    static DeclarationsException bad(String yaml) {
        DeclarationsException e = assertThrows(DeclarationsException.class, () -> DeclarationsParser.parse(yaml, "t.yaml"));
        assertFalse(e.getMessage().contains("org.snakeyaml"), e.getMessage());
        return e;
    }

    static void assertError(String yaml, String location, String... fragments) {
        DeclarationsException e = bad(yaml);
        assertTrue(e.getMessage().startsWith("t.yaml:" + location + ": "), e.getMessage());
        for (String f : fragments) assertTrue(e.getMessage().contains(f), "missing '" + f + "' in: " + e.getMessage());
    }

    @Test
    void invalidYaml() {
        assertError(HEAD + "types: {a: [1, 2}\n", "3:17", "not valid YAML", "expected");
        assertError("format: 1\n  library: x\n - y\n", "2:10", "not valid YAML");
        assertError("", "1:1", "empty");
        assertError("- 1\n- 2\n", "1:1", "the document is a list; expected a mapping");
    }

    @Test
    void aCharacterOutsideTheBasicPlaneIsReadWhereverItFalls() {
        // a surrogate pair at every position around the YAML reader's 1,024-character window
        for (int pad = 1000; pad < 1040; pad++) {
            String yaml = "# " + "x".repeat(pad) + "\uD83D\uDE00\n" + HEAD + "constants: {K: 1}\n";
            Declarations d = DeclarationsParser.parse(yaml, "t.yaml");
            assertEquals(1, d.constants().size(), "pad=" + pad);
        }
        for (int pad = 1000; pad < 1040; pad++) {
            String yaml = "# " + "x".repeat(pad) + "\n" + HEAD + "functions:\n  - {name: f\uD83D\uDE00}\n";
            DeclarationsException e = assertThrows(DeclarationsException.class, () -> DeclarationsParser.parse(yaml, "t.yaml"));
            assertTrue(e.getMessage().startsWith("t.yaml:"), e.getMessage());
        }
        assertError(HEAD + "# half a pair \uD83D", "1:1", "not valid YAML");
    }

    @Test
    void unknownAndDuplicateKeys() {
        assertError(HEAD + "functons: []\n", "3:1", "unknown key 'functons' in top level", "expected one of [format, library");
        assertError(HEAD + "functions:\n  - {name: f, retruns: i32}\n", "4:15", "unknown key 'retruns'", "[name, returns, params");
        assertError(HEAD + "functions:\n  - {name: f, params: [{name: a, type: i32, dirr: in}]}\n", "4:45", "unknown key 'dirr'");
        assertError(HEAD + "library: u\n", "3:1", "library");
        assertError(HEAD + "types:\n  P: {struct: [[i32, a]], aling: 8}\n", "4:27", "unknown key 'aling'", "[struct, align]");
        assertError(HEAD + "types:\n  P: {strukt: [[i32, a]]}\n", "4:6", "none of the keys struct, union, handle, callback");
    }

    @Test
    void missingAndIllTypedValues() {
        assertError("library: t\n", "1:1", "missing key 'format'");
        assertError("format: 2\nlibrary: t\n", "1:9", "unsupported format 2; expected 1");
        assertError("format: one\nlibrary: t\n", "1:9", "expected an integer");
        assertError(HEAD + "functions:\n  - {returns: i32}\n", "4:5", "missing key 'name'");
        assertError(HEAD + "functions:\n  - {name: f, tier: fast}\n", "4:21", "tier 'fast'", "[standard, critical, critical_heap]");
        assertError(HEAD + "functions:\n  - {name: f, batchable: yes}\n", "4:26", "expected true or false");
        assertError(HEAD + "functions:\n  - {name: f, params: [[i32]]}\n", "4:24", "expected [type, name]");
        assertError(HEAD + "functions:\n  - {name: f}\n  - {name: f}\n", "5:12", "declared twice");
        assertError(HEAD + "functions:\n  - {name: f, params: [[i32, a], [i32, a]]}\n", "4:34", "parameter 'a'", "declared twice");
        assertError(HEAD + "package: 9bad\n", "3:10", "not a Java package name");
        assertError(HEAD + "functions:\n  - {name: f, params: [{name: a, type: u8*, length: n}]}\n", "4:53", "length 'n' names no parameter");
        assertError(HEAD + "functions:\n  - {name: f, returns: {type: i32, status: nope}}\n", "4:44", "unknown error convention 'nope'");
        assertError(HEAD + "functions:\n  - {name: f, tier: critical, blocking: true}\n", "4:41", "expected tier standard");
        assertError(HEAD + "errors:\n  e: {type: f32, success: [0]}\n", "4:3", "expected an integer type");
        assertError(HEAD + "constants:\n  C: abc\n", "4:6", "expected an integer or a floating-point number");
    }

    @Test
    void aLengthIsAParameterNameOrAFixedCount() {
        Declarations d = DeclarationsParser.parse(HEAD + "functions:\n  - name: f\n    params:\n"
                + "      - {name: origin, type: size_t*, length: 3}\n      - {name: p, type: u8*, length: n}\n      - [u32, n]\n"
                + "      - [size_t*, one]\n", "t.yaml");
        List<Param> ps = d.function("f").orElseThrow().params();
        assertEquals(3, ps.get(0).count());
        assertNull(ps.get(0).length());
        assertEquals("n", ps.get(1).length());
        assertEquals(0, ps.get(1).count());
        assertFalse(ps.get(3).hasLength());
    }

    @Test
    void integerConstantsCoverAll64BitsSignedAndInHexadecimal() {
        Declarations d = DeclarationsParser.parse(HEAD + "constants:\n  MIN: -9223372036854775808\n  MAX: 9223372036854775807\n"
                + "  UMAX: 0xffffffffffffffff\n  OCT: 0o17\n", "t.yaml");
        assertEquals(Long.MIN_VALUE, d.constants().get("MIN").value());
        assertEquals(Long.MAX_VALUE, d.constants().get("MAX").value());
        assertEquals(-1L, d.constants().get("UMAX").value());
        assertEquals(15L, d.constants().get("OCT").value());
        assertError(HEAD + "constants:\n  BIG: 9223372036854775808\n", "4:8", "constant BIG '9223372036854775808' is out of range",
                "expected a 64-bit integer");
        assertError(HEAD + "constants:\n  LOW: -9223372036854775809\n", "4:8", "out of range");
        assertError(HEAD + "constants:\n  WIDE: 0x10000000000000000\n", "4:9", "out of range");
    }

    @Test
    void unknownTypes() {
        assertError(HEAD + "functions:\n  - {name: f, returns: u33}\n", "4:24", "unknown type 'u33'", "expected a primitive (void bool i8");
        assertError(HEAD + "types:\n  P: {struct: [[Q, q]]}\n", "4:17", "unknown type 'Q'", "declared under types (P)");
        assertError(HEAD + "functions:\n  - {name: f, params: [[Nope*, p]]}\n", "4:25", "unknown type 'Nope'");
        assertError(HEAD + "functions:\n  - {name: f, params: [[char, c]]}\n", "4:25", "expected char* (a C string), i8 or u8");
        assertError(HEAD + "functions:\n  - {name: f, params: [['i32 i32', c]]}\n", "4:25", "is not a type");
        assertError(HEAD + "types:\n  i32: u8\n", "4:3", "built-in type");
    }

    @Test
    void recursiveTypes() {
        assertError(HEAD + "types:\n  A: {struct: [[i32, x], [A, self]]}\n", "4:27", "recursive type: A -> A", "use a pointer, A*");
        assertError(HEAD + "types:\n  A: {struct: [[B, b]]}\n  B: {union: [[i32, i], [A, a]]}\n", "5:26", "recursive type: A -> B -> A");
        assertError(HEAD + "types:\n  a: b\n  b: a\n", "5:6", "recursive type: a -> b -> a");
        // through a pointer it is fine: a linked list
        Declarations d = DeclarationsParser.parse(HEAD + "types:\n  Node: {struct: [[i32, v], [Node*, next]]}\n", "t.yaml");
        assertEquals(16, d.resolveType("Node").size());
    }

    @Test
    void voidAndArraysOnlyWhereTheyBelong() {
        assertError(HEAD + "functions:\n  - {name: f, params: [[void, v]]}\n", "4:25", "void is not a value type");
        assertError(HEAD + "types:\n  P: {struct: [[void, v]]}\n", "4:17", "void is not a value type");
        assertError(HEAD + "functions:\n  - {name: f, params: [[i32[4], v]]}\n", "4:25", "array type i32[4] is not allowed here");
        assertError(HEAD + "types:\n  A4: i32[4]\nfunctions:\n  - {name: f, returns: A4}\n", "6:24", "is an array");
        assertError(HEAD + "types:\n  P: {struct: [[i32[0], v]]}\n", "4:17", "array length 0");
        assertError(HEAD + "types:\n  P: {struct: [[i64, v]], align: 4}\n", "4:6", "explicit alignment below the natural one");
        assertError(HEAD + "types:\n  P: {struct: [[i64, v]], align: 12}\n", "4:34", "expected a power of two");
        assertError(HEAD + "types:\n  P: {struct: []}\n", "4:15", "no fields");
        Declarations d = DeclarationsParser.parse(HEAD + "types:\n  M: {struct: [[i16[2][3], m], [f80, x]]}\n"
                + "functions:\n  - {name: f, returns: void*, params: [[string, s], [M, m]]}\n", "t.yaml");
        CType.Struct m = (CType.Struct) d.resolveType("M");
        assertEquals(new CType.Array(new CType.Array(CType.I16, 3), 2), m.fields().getFirst().type());
        assertEquals(32, m.size());
        assertEquals(CType.POINTER, d.cFunction(d.function("f").orElseThrow()).type().returns());
    }
}
