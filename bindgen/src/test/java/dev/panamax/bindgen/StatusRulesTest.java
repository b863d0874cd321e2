package dev.panamax.bindgen;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.core.batch.StatusRule;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.*;

/** From a declared {@code returns: {status: ...}} convention to the rule a batch checks. */
class StatusRulesTest {
    static final Declarations D = parse();

    static Declarations parse() {
        try {
            return DeclarationsParser.parse(DeclarationsParserTest.resource("status_rules.yaml"), "status_rules.yaml");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Optional<StatusRule> rule(String function) {
        return D.statusRule(D.function(function).orElseThrow());
    }

    static DeclarationsException refused(String function) {
        return assertThrows(DeclarationsException.class, () -> rule(function));
    }

    @Test
    void conventionsBecomeOneRange() {
        assertEquals(Optional.empty(), rule("st_plain"), "no status, no rule");
        assertEquals(Optional.of(StatusRule.successIs(0)), rule("st_open"), "through the st_int alias");
        assertEquals(Optional.of(StatusRule.successBetween(0, 2)), rule("st_poll"), "listed in any order");
        assertEquals(Optional.of(StatusRule.successIs(255)), rule("st_byte_op"), "u8 is zero-extended");
        assertEquals(Optional.of(StatusRule.successIs(1)), rule("st_ready"));
        assertEquals(Optional.of(StatusRule.successIs(0)), rule("st_count"));
        StatusRule r = rule("st_poll").orElseThrow();
        assertTrue(r.isSuccess(0) && r.isSuccess(2));
        assertFalse(r.isSuccess(-1) || r.isSuccess(3));
    }

    @Test
    void conventionsABatchCannotCheckAreRefusedWhereTheFunctionSaysSo() {
        DeclarationsException gaps = refused("st_gappy");
        assertTrue(gaps.getMessage().contains("success codes [0, 2] of status convention st_gaps"), gaps.getMessage());
        assertTrue(gaps.getMessage().contains("not one contiguous range"), gaps.getMessage());
        assertEquals(D.function("st_gappy").orElseThrow().returns().location(), gaps.location());
        assertTrue(gaps.getMessage().startsWith("status_rules.yaml:"), gaps.getMessage());

        DeclarationsException unsigned = refused("st_neg_unsigned");
        assertTrue(unsigned.getMessage().contains("success code -1 of status convention st_unsigned does not fit u32 (0..4294967295)"),
                unsigned.getMessage());
        DeclarationsException wider = refused("st_wider");
        assertTrue(wider.getMessage().contains("returns i64 (i64) but its status convention st_status has type st_int (i32)"),
                wider.getMessage());
        // a status on a floating-point result is refused when the file is parsed, at the same place
        DeclarationsException fp = assertThrows(DeclarationsException.class, () -> DeclarationsParser.parse(
                "format: 1\nlibrary: f\nerrors:\n  st: {type: i32, success: [0]}\nfunctions:\n"
                        + "  - {name: st_float, returns: {type: f32, status: st}}\n", "float.yaml"));
        assertTrue(fp.getMessage().startsWith("float.yaml:6:38: "), fp.getMessage());
        assertTrue(fp.getMessage().contains("expected an integer or bool return"), fp.getMessage());
    }

    /** Every status-returning function of the OpenCL declarations maps (to CL_SUCCESS only). */
    @Test
    void everyOpenClStatusMaps() throws IOException {
        Path file = Path.of("../opencl/src/main/decl/opencl.yaml");
        assertTrue(Files.isRegularFile(file), file.toAbsolutePath().toString());
        Declarations cl = DeclarationsParser.parse(file);
        int withStatus = 0;
        for (Function f : cl.functions()) {
            if (f.returns().status() == null) continue;
            withStatus++;
            assertEquals(Optional.of(StatusRule.successIs(0)), cl.statusRule(f), f.name());
        }
        assertTrue(withStatus > 50, "statuses: " + withStatus);
    }
}
