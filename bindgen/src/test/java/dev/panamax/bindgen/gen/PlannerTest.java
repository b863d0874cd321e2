package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.decl.Param;
import dev.panamax.bindgen.gen.TypedFunction.Mapping;
import dev.panamax.bindgen.gen.TypedFunction.Out;
import dev.panamax.bindgen.gen.TypedFunction.Result;
import dev.panamax.core.abi.ScalarKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The plan of golden/demo.yaml, decision by decision, without rendering any text. */
class PlannerTest {
    static final BindingPlan PLAN = Planner.plan(DeclarationsParser.parse(GoldenTest.DEMO));

    static List<TypedFunction> typed(String name) {
        return PLAN.typedFunctions().stream().filter(f -> f.name().equals(name)).toList();
    }

    static List<Mapping> mappings(TypedFunction f) {
        return f.params().stream().map(TypedFunction.TypedParam::mapping).toList();
    }

    @Test
    void namesOfTheGeneratedClasses() {
        BindingPlan.Names n = PLAN.names();
        assertEquals(new BindingPlan.Names("org.example.demo", "Demo", "DemoApi", "DemoException", "DemoThunks",
                "DemoByAddress"), n);
        assertEquals(List.of("panamax_demo", "libpanamax_demo.so.1"), PLAN.libraryNames());
        assertEquals("libpanamax_glue_demo.so", PLAN.glueLibraryFile());
        assertEquals(List.of("Point", "Cell", "Grid"), PLAN.structs().stream().map(BindingPlan.StructPlan::className).toList());
        assertEquals(List.of("DemoObj", "DemoRoot"), PLAN.handles().stream().map(BindingPlan.HandlePlan::className).toList());
    }

    @Test
    void constantsTakeTheNarrowestJavaType() {
        assertEquals(List.of(new BindingPlan.ConstantPlan("DEMO_OK", "int", "0"),
                new BindingPlan.ConstantPlan("DEMO_BIG", "long", "4294967296L"),
                new BindingPlan.ConstantPlan("DEMO_RATIO", "double", "0.5")), PLAN.constants());
    }

    @Test
    void handlesKnowHowTheyAreReleased() {
        BindingPlan.HandlePlan obj = PLAN.handles().getFirst();
        assertEquals(new BindingPlan.HandlePlan("demo_obj", "DemoObj", "demo_retain", true, "demo_status", ScalarKind.I32,
                "demo_release", true, "demo_status", ScalarKind.I32, true, true), obj);
        BindingPlan.HandlePlan root = PLAN.handles().get(1);
        assertFalse(root.ownable());
        assertFalse(root.ownedByDefault());
    }

    @Test
    void rawFunctionsCarryTheirTierAndLayouts() {
        BindingPlan.RawFunction sum = PLAN.rawFunctions().stream().filter(f -> f.name().equals("demo_sum")).findFirst().orElseThrow();
        assertEquals("CRITICAL_HEAP", sum.tier());
        assertEquals("float", sum.returnCarrier());
        assertEquals(List.of("ValueLayout.ADDRESS", "ValueLayout.JAVA_LONG"), sum.params().stream().map(BindingPlan.RawParam::layout).toList());
        BindingPlan.RawFunction mid = PLAN.rawFunctions().stream().filter(f -> f.name().equals("demo_mid")).findFirst().orElseThrow();
        assertTrue(mid.returnsGroup());
        assertEquals("Point.LAYOUT", mid.returnLayout());
    }

    @Test
    void anArrayOrASegmentCarriesItsOwnLength() {
        List<TypedFunction> sum = typed("demo_sum");
        assertEquals(List.of(TypedFunction.Variant.ARRAYS, TypedFunction.Variant.SEGMENTS), sum.stream().map(TypedFunction::variant).toList());
        assertEquals(List.of(new Mapping.ScalarArray(ScalarKind.F32, Param.Direction.IN, false, 0),
                new Mapping.DerivedLength(ScalarKind.U64, List.of("values"))), mappings(sum.getFirst()));
        assertEquals(List.of(new Mapping.Segment(false), new Mapping.DerivedLength(ScalarKind.U64, List.of("values"),
                List.of("ArgumentChecks.elements(\"demo_sum\", \"values\", values, 4)"))), mappings(sum.get(1)));
        assertTrue(sum.getFirst().heapInPlace());
    }

    @Test
    void aLengthExpressionChecksArraysOfEveryKindAndKeepsTheCountsItReads() {
        String yaml = "format: 1\nlibrary: t\npackage: org.example.t\n"
                + "types:\n  obj: {handle: opaque, release: t_free}\n"
                + "functions:\n  - {name: t_free, params: [[obj, o]]}\n"
                + "  - name: t_f\n    params:\n      - [i32, n]\n"
                + "      - {name: objs, type: obj*, length: 2 * n}\n"
                + "      - {name: names, type: char**, length: n + 1}\n"
                + "      - {name: xs, type: f32*, length: \"max(n, 4)\"}\n";
        BindingPlan plan = Planner.plan(DeclarationsParser.parse(yaml, "t.yaml"));
        TypedFunction f = plan.typedFunctions().stream().filter(t -> t.name().equals("t_f")).findFirst().orElseThrow();
        assertEquals(new Mapping.Value(ScalarKind.I32), f.params().getFirst().mapping(), "n is read by the expressions, so it stays");
        for (TypedFunction.TypedParam p : f.params().subList(1, 4)) {
            assertNotNull(p.extent(), p.decl().name() + " is checked");
            assertEquals("needed", p.extent().countName());
        }
        assertEquals("Math.max(0L, Math.multiplyExact(2L, n))", f.params().get(1).extent().count());
        assertEquals("Math.max(0L, Math.max(n, 4L))", f.params().get(3).extent().count());
    }

    @Test
    void errcodesAreCheckedAndOwnedHandlesReturned() {
        TypedFunction create = typed("demo_create").getFirst();
        assertEquals(List.of(new Mapping.HandleValue("DemoRoot", false), new Mapping.StringIn(true),
                new Mapping.Errcode("check_demo_status", ScalarKind.I32)), mappings(create));
        assertEquals(new Result.Handle("DemoObj", true), create.result());
        assertNull(create.status());
        assertEquals(new Result.Handle("DemoRoot", false), typed("demo_root_get").getFirst().result());
    }

    @Test
    void aCheckedStatusGivesWayToTheOutParameter() {
        TypedFunction size = typed("demo_size_of").getFirst();
        assertEquals("check_demo_status", size.status());
        assertEquals(new Mapping.ReturnedOut(new Out.Scalar(ScalarKind.U64)), mappings(size).get(1));
        assertEquals(new Result.Outs("long"), size.result());
        assertEquals(List.of("size"), size.outs());
    }

    @Test
    void aCallbackIsPairedWithItsUserData() {
        TypedFunction onDone = typed("demo_on_done").getFirst();
        assertEquals(List.of(new Mapping.HandleValue("DemoObj", false), new Mapping.CallbackValue("DemoDone", "user_data", false, true),
                new Mapping.UserData("callback", "MemorySegment")), mappings(onDone));
        BindingPlan.CallbackPlan done = PLAN.callbacks().getFirst();
        assertTrue(done.usesRegistry());
        assertEquals(2, done.userDataIndex());
        assertEquals("DemoObj", done.params().getFirst().handleClass());
    }

    @Test
    void batchableFunctionsGetThunksWithTheirStatusRule() {
        assertEquals(List.of("demo_sum", "demo_size_of"), PLAN.thunks().stream().map(BindingPlan.ThunkPlan::name).toList());
        assertNull(PLAN.thunks().getFirst().statusRule());
        assertEquals("StatusRule.successBetween(0L, 0L)", PLAN.thunks().get(1).statusRule());
        assertTrue(PLAN.thunks().getFirst().critical(), "critical_heap is a critical tier");
        assertTrue(PLAN.thunks().get(1).critical());
        assertEquals(List.of(), PLAN.skipped());
    }
}
