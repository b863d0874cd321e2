package dev.panamax.core.abi;

import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.panamax.core.abi.CType.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Golden tests of the classifier: every row of the seed's example matrix, with its C types, and
 * edge cases. Each asserts the exact mode, leaf and block layout.
 */
class MetaAbiGoldenTest {
    static final Struct POINT = new Struct("Point", List.of(new Field("x", F32), new Field("y", F32)));
    static final Struct RECT = new Struct("Rect", List.of(new Field("x", F32), new Field("y", F32),
            new Field("w", F32), new Field("h", F32)));
    static final Struct NS_RANGE = new Struct("NSRange", List.of(new Field("location", U64), new Field("length", U64)));

    record Row(String name, CFunctionType type, Mode mode, Leaf leaf, String block) {}

    static Row row(String name, Mode mode, Leaf leaf, String block, CType ret, Object... params) {
        return new Row(name, CFunctionType.of(ret, params), mode, leaf, block);
    }

    /** The seed's example matrix, in its order; id is a pointer, BOOL is bool, NSRange is {u64, u64}. */
    static final List<Row> MATRIX = List.of(
            row("-(void) reset", Mode.VOID, Leaf.VOID, "0/1 ret=- []", VOID),
            row("-(void) setName:(id)s", Mode.VOID_PTR, Leaf.A, "8/8 ret=- [s@0+8]", VOID, "s", POINTER),
            row("-(void) setCount:(int)n", Mode.VOID_PTR, Leaf.A, "8/8 ret=- [n@0+4]", VOID, "n", I32),
            row("-(void) setFlag:(BOOL)b", Mode.VOID_PTR, Leaf.A, "8/8 ret=- [b@0+1]", VOID, "b", BOOL),
            row("-(void) setFloat:(float)f", Mode.STRUCT, Leaf.B, "4/4 ret=- [f@0+4]", VOID, "f", F32),
            row("-(void) setDouble:(double)d", Mode.STRUCT, Leaf.B, "8/8 ret=- [d@0+8]", VOID, "d", F64),
            row("-(void) move:(Point)p", Mode.VOID_PTR, Leaf.C, "8/8 ret=- [p@0+8]", VOID, "p", POINT),
            row("-(void) setRect:(Rect)r", Mode.STRUCT, Leaf.D, "16/4 ret=- [r@0+16]", VOID, "r", RECT),
            row("-(void) setXY:(int)x y:(int)y", Mode.STRUCT, Leaf.STRUCT, "8/4 ret=- [x@0+4, y@4+4]", VOID, "x", I32, "y", I32),
            row("-(void) foo:(float)f b:(float)g", Mode.STRUCT, Leaf.STRUCT, "8/4 ret=- [f@0+4, g@4+4]", VOID, "f", F32, "g", F32),
            row("-(void) foo:(Point)a b:(Point)b", Mode.STRUCT, Leaf.STRUCT, "16/4 ret=- [a@0+8, b@8+8]", VOID, "a", POINT, "b", POINT),
            row("-(id) self", Mode.VOID_PTR, Leaf.VOID_PTR_3, "0/1 ret=- []", POINTER),
            row("-(id) objectAt:(int)i", Mode.VOID_PTR, Leaf.E, "8/8 ret=- [i@0+4]", POINTER, "i", I32),
            row("-(id) wrap:(Point)p", Mode.VOID_PTR, Leaf.G, "8/8 ret=- [p@0+8]", POINTER, "p", POINT),
            row("-(int) count", Mode.VOID_PTR, Leaf.VOID_PTR_3, "0/1 ret=- []", I32),
            row("-(int) indexOf:(id)o", Mode.VOID_PTR, Leaf.E, "8/8 ret=- [o@0+8]", I32, "o", POINTER),
            row("-(int) add:(int)a b:(int)b", Mode.STRUCT, Leaf.STRUCT, "8/4 ret=- [a@0+4, b@4+4]", I32, "a", I32, "b", I32),
            row("-(float) val", Mode.STRUCT, Leaf.STRUCT, "4/4 ret=0+4 []", F32),
            row("-(float) dot:(Point)p", Mode.STRUCT, Leaf.STRUCT, "12/4 ret=0+4 [p@4+8]", F32, "p", POINT),
            row("-(float) dot:(Point)a b:(Point)b", Mode.STRUCT, Leaf.STRUCT, "20/4 ret=0+4 [a@4+8, b@12+8]", F32, "a", POINT, "b", POINT),
            row("-(double) area:(Rect)r", Mode.STRUCT, Leaf.STRUCT, "24/8 ret=0+8 [r@8+16]", F64, "r", RECT),
            row("-(Point) origin", Mode.STRUCT, Leaf.STRUCT, "8/4 ret=0+8 []", POINT),
            row("-(Point) scaled:(float)f", Mode.STRUCT, Leaf.STRUCT, "12/4 ret=0+8 [f@8+4]", POINT, "f", F32),
            row("-(Point) add:(Point)a b:(Point)b", Mode.STRUCT, Leaf.STRUCT, "24/4 ret=0+8 [a@8+8, b@16+8]", POINT, "a", POINT, "b", POINT),
            row("-(CGRect) bounds", Mode.STRUCT, Leaf.STRUCT, "16/4 ret=0+16 []", RECT),
            row("-(NSRange) range:(int)loc", Mode.STRUCT, Leaf.STRUCT, "24/8 ret=0+16 [loc@16+4]", NS_RANGE, "loc", I32));

    @Test
    void everyRowOfTheSeedsExampleMatrix() {
        for (Row r : MATRIX) {
            Classification c = MetaAbi.classify(r.type());
            assertEquals(r.mode(), c.mode(), r.name());
            assertEquals(r.leaf(), c.leaf(), r.name());
            assertEquals(r.block(), describe(c.block()), r.name());
        }
    }

    @Test
    void theMatrixCoversEveryLeafButFAndH() {
        var seen = MATRIX.stream().map(r -> MetaAbi.classify(r.type()).leaf()).collect(java.util.stream.Collectors.toSet());
        for (Leaf l : Leaf.values()) {
            if (l != Leaf.F && l != Leaf.H) assertTrue(seen.contains(l), l.name());
        }
    }

    @Test
    void leavesFAndHFromTheChart() {
        // int return, one FP parameter: F; int return, one large struct: H
        assertLeaf(Leaf.F, "8/8 ret=- [d@0+8]", CFunctionType.of(I32, "d", F64));
        assertLeaf(Leaf.F, "4/4 ret=- [f@0+4]", CFunctionType.of(POINTER, "f", F32));
        assertLeaf(Leaf.H, "16/8 ret=- [r@0+16]", CFunctionType.of(I64, "r", NS_RANGE));
        assertLeaf(Leaf.H, "16/4 ret=- [r@0+16]", CFunctionType.of(BOOL, "r", RECT));
    }

    @Test
    void returnIsTestedFirst() {
        // -(Point) mirror:(Point)p goes STRUCT because of the return, not the parameter
        assertLeaf(Leaf.STRUCT, "16/4 ret=0+8 [p@8+8]", CFunctionType.of(POINT, "p", POINT));
        // a 1-byte struct return still takes the slot
        Struct tiny = new Struct("Tiny", List.of(new Field("b", U8)));
        assertLeaf(Leaf.STRUCT, "1/1 ret=0+1 []", CFunctionType.of(tiny));
        assertLeaf(Leaf.STRUCT, "16/8 ret=0+8 [p@8+8]", CFunctionType.of(F64, "p", POINTER));
    }

    @Test
    void oneByteStruct() {
        Struct tiny = new Struct("Tiny", List.of(new Field("b", U8)));
        assertEquals(1, tiny.size());
        assertEquals(1, tiny.align());
        assertLeaf(Leaf.C, "8/8 ret=- [t@0+1]", CFunctionType.of(VOID, "t", tiny));
        assertLeaf(Leaf.G, "8/8 ret=- [t@0+1]", CFunctionType.of(U8, "t", tiny));
    }

    @Test
    void unionOfIntAndFloatIsTiny() {
        Union v = new Union("Value", List.of(new Field("i", I32), new Field("f", F32)));
        assertEquals(4, v.size());
        assertEquals(4, v.align());
        assertLeaf(Leaf.C, "8/8 ret=- [v@0+4]", CFunctionType.of(VOID, "v", v));
        assertLeaf(Leaf.STRUCT, "4/4 ret=0+4 []", CFunctionType.of(v));
        Union wide = new Union("Wide", List.of(new Field("d", F64), new Field("b", new Array(U8, 12))));
        assertEquals(16, wide.size());
        assertLeaf(Leaf.H, "16/8 ret=- [w@0+16]", CFunctionType.of(I32, "w", wide));
    }

    @Test
    void structWithAnEightByteAlignedMember() {
        Struct tagged = new Struct("Tagged", List.of(new Field("tag", U8), new Field("value", I64)));
        assertEquals(16, tagged.size());
        assertEquals(8, tagged.align());
        assertEquals(8, tagged.offsetOf(1));
        assertLeaf(Leaf.D, "16/8 ret=- [t@0+16]", CFunctionType.of(VOID, "t", tagged));
        Struct boxed = new Struct("Boxed", List.of(new Field("d", F64)));
        assertLeaf(Leaf.G, "8/8 ret=- [b@0+8]", CFunctionType.of(I32, "b", boxed));
        // 3 params: i8 at 0, Tagged at 8, i8 at 24, total 32 aligned 8
        assertLeaf(Leaf.STRUCT, "32/8 ret=- [a@0+1, t@8+16, c@24+1]", CFunctionType.of(VOID, "a", I8, "t", tagged, "c", I8));
    }

    @Test
    void sixteenByteAlignedStruct() {
        Struct pair = new Struct("Pair", List.of(new Field("a", I32), new Field("b", I32)), 16);
        assertEquals(16, pair.size());
        assertEquals(16, pair.align());
        assertLeaf(Leaf.D, "16/16 ret=- [p@0+16]", CFunctionType.of(VOID, "p", pair));
        assertLeaf(Leaf.STRUCT, "48/16 ret=0+16 [a@16+1, p@32+16]", CFunctionType.of(pair, "a", BOOL, "p", pair));
        // explicit alignment 8 on a 4-byte struct: size 8 align 8 is still void*-compatible
        Struct eight = new Struct("Eight", List.of(new Field("a", I32)), 8);
        assertEquals(8, eight.size());
        assertLeaf(Leaf.C, "8/8 ret=- [e@0+8]", CFunctionType.of(VOID, "e", eight));
    }

    @Test
    void arrayFields() {
        Struct bytes4 = new Struct("Bytes4", List.of(new Field("b", new Array(U8, 4))));
        assertEquals(4, bytes4.size());
        assertLeaf(Leaf.G, "8/8 ret=- [b@0+4]", CFunctionType.of(I32, "b", bytes4));
        Struct vec4 = new Struct("Vec4", List.of(new Field("v", new Array(F32, 4))));
        assertEquals(16, vec4.size());
        assertLeaf(Leaf.D, "16/4 ret=- [v@0+16]", CFunctionType.of(VOID, "v", vec4));
        Struct mixed = new Struct("Mixed", List.of(new Field("n", U8), new Field("m", new Array(new Array(I16, 3), 2))));
        assertEquals(2, mixed.offsetOf(1));
        assertEquals(14, mixed.size());
        assertEquals(2, mixed.align());
        assertThrows(IllegalArgumentException.class, () -> CFunctionType.of(VOID, "a", new Array(I32, 2)));
        assertThrows(IllegalArgumentException.class, () -> CFunctionType.of(new Array(I32, 2)));
    }

    @Test
    void nestedStructs() {
        Struct rect2 = new Struct("Rect2", List.of(new Field("origin", POINT), new Field("size", POINT)));
        assertEquals(16, rect2.size());
        assertEquals(8, rect2.offsetOf(1));
        Struct outer = new Struct("Outer", List.of(new Field("c", I8), new Field("r", NS_RANGE), new Field("d", I8)));
        assertEquals(32, outer.size());
        assertEquals(8, outer.offsetOf(1));
        assertEquals(24, outer.offsetOf(2));
    }

    @Test
    void longDoubleIsClassifiedStruct() {
        assertEquals(16, F80.size());
        assertEquals(16, F80.align());
        assertLeaf(Leaf.B, "16/16 ret=- [x@0+16]", CFunctionType.of(VOID, "x", F80));
        assertLeaf(Leaf.F, "16/16 ret=- [x@0+16]", CFunctionType.of(I32, "x", F80));
        assertLeaf(Leaf.STRUCT, "32/16 ret=0+16 [x@16+16]", CFunctionType.of(F80, "x", F80));
        assertThrows(UnsupportedOperationException.class, () -> FfmLayouts.descriptorOf(CFunctionType.of(F80)));
    }

    /** 0, 1, 2 and 3 parameters of each kind, with each return class. */
    @Test
    void zeroToThreeParamsOfEachKind() {
        Struct rect = RECT;
        List<CType> kinds = List.of(BOOL, I8, U16, I32, U64, SIZE_T, POINTER,
                new FunctionPointer(CFunctionType.of(VOID)), F32, F64, POINT, rect);
        for (CType ret : List.of(VOID, I32, POINTER, F64, POINT)) {
            boolean retSlot = ret == F64 || ret == POINT;
            for (CType k : kinds) {
                for (int n = 0; n <= 3; n++) {
                    Object[] ps = new Object[2 * n];
                    for (int i = 0; i < n; i++) {
                        ps[2 * i] = "p" + i;
                        ps[2 * i + 1] = k;
                    }
                    Classification c = MetaAbi.classify(CFunctionType.of(ret, ps));
                    Mode expected;
                    if (retSlot || n >= 2) expected = Mode.STRUCT;
                    else if (n == 0) expected = ret == VOID ? Mode.VOID : Mode.VOID_PTR;
                    else expected = MetaAbi.isVoidPtrCompatibleParam(k) ? Mode.VOID_PTR : Mode.STRUCT;
                    String what = ret + " " + n + "x" + k;
                    assertEquals(expected, c.mode(), what);
                    assertEquals(retSlot, c.returnsInSlot(), what);
                    assertEquals(n, c.block().params().size(), what);
                    if (c.mode() == Mode.STRUCT) {
                        int at = retSlot ? ret.size() : 0;
                        for (int i = 0; i < n; i++) {
                            at = (at + k.align() - 1) / k.align() * k.align();
                            assertEquals(at, c.block().params().get(i).offset(), what + " param " + i);
                            at += k.size();
                        }
                        assertEquals(0, c.block().size() % c.block().align(), what);
                        assertTrue(c.block().size() >= at, what);
                    }
                }
            }
        }
        assertEquals(Leaf.A, MetaAbi.classify(CFunctionType.of(VOID, "f", kinds.get(7))).leaf());
        assertEquals(Leaf.E, MetaAbi.classify(CFunctionType.of(SIZE_T, "b", BOOL)).leaf());
    }

    @Test
    void badTypesAreRejectedWithDetails() {
        var e = assertThrows(IllegalArgumentException.class, () -> new Struct("Empty", List.of()));
        assertTrue(e.getMessage().contains("name=Empty"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Struct("P", List.of(new Field("x", I32)), 3));
        assertTrue(e.getMessage().contains("align=3"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Struct("P", List.of(new Field("x", I64)), 4));
        assertTrue(e.getMessage().contains("natural=8"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Struct("P", List.of(new Field("x", I32), new Field("x", I32))));
        assertThrows(IllegalArgumentException.class, () -> new Field("v", VOID));
        assertThrows(IllegalArgumentException.class, () -> CFunctionType.of(VOID, "v", VOID));
        assertThrows(IllegalArgumentException.class, () -> CFunctionType.of(VOID, "a", I32, "a", I32));
        assertThrows(IllegalArgumentException.class, () -> new Array(I32, 0));
    }

    private static void assertLeaf(Leaf leaf, String block, CFunctionType type) {
        Classification c = MetaAbi.classify(type);
        assertEquals(leaf, c.leaf(), type.toString());
        assertEquals(leaf.mode(), c.mode(), type.toString());
        assertEquals(block, describe(c.block()), type.toString());
    }

    /** size/align ret=offset+size [name@offset+size, ...] */
    static String describe(BlockLayout b) {
        StringBuilder s = new StringBuilder().append(b.size()).append('/').append(b.align()).append(" ret=");
        s.append(b.returnSlot() == null ? "-" : b.returnSlot().offset() + "+" + b.returnSlot().size()).append(" [");
        for (int i = 0; i < b.params().size(); i++) {
            BlockLayout.ParamSlot p = b.params().get(i);
            if (i > 0) s.append(", ");
            s.append(p.name()).append('@').append(p.offset()).append('+').append(p.size());
        }
        return s.append(']').toString();
    }
}
