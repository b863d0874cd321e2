package dev.panamax.bindgen.importer;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The token counts {@link MacroSize} works out from macro bodies, with no preprocessor. */
class MacroSizeTest {
    private final Map<String, MacroSize.Definition> macros = new HashMap<>();
    private int lookups;
    private final MacroSize sizes = new MacroSize(name -> {
        lookups++;
        return macros.get(name);
    });

    private void object(String name, String body) {
        macros.put(name, new MacroSize.Definition(null, List.of(body.split(" "))));
    }

    private void function(String name, List<String> params, String body) {
        macros.put(name, new MacroSize.Definition(params, List.of(body.split(" "))));
    }

    @Test
    void anObjectLikeMacroCountsTheTokensOfWhatItUses() {
        object("ONE", "1");
        object("TWO", "( ONE << 1 )");
        object("MASK", "( TWO | ONE | 0x10 )");
        assertEquals(1, sizes.of("ONE"));
        assertEquals(5, sizes.of("TWO"));
        assertEquals(1 + 5 + 1 + 1 + 1 + 1 + 1, sizes.of("MASK"));
        assertEquals(1, sizes.of("NOT_A_MACRO"));
    }

    @Test
    void doublingMacrosSaturateJustAboveTheLimitAndEachBodyIsReadOnce() {
        object("D0", "1");
        for (int i = 1; i <= 200; i++) object("D" + i, "( D" + (i - 1) + " + D" + (i - 1) + " )");
        assertEquals((1L << 13) - 3, sizes.of("D11"));
        assertEquals(MacroSize.LIMIT + 1, sizes.of("D12"));
        assertEquals(MacroSize.LIMIT + 1, sizes.of("D200"));
        // each body is read once: no more lookups than the tokens of all bodies (5 each) plus the three asked
        assertTrue(lookups <= 201 * 5 + 3, "lookups: " + lookups);
    }

    @Test
    void aFunctionLikeMacroCountsEachUseOfAParameterAsTheWholeArgumentList() {
        function("TWICE", List.of("x"), "( ( x ) + ( x ) )");
        object("NESTED", "TWICE ( TWICE ( TWICE ( 1 ) ) )");
        // TWICE(1): 9 tokens; TWICE(TWICE(1)): 7 + 2 * 9 = 25; three deep: 7 + 2 * 25 = 57
        assertEquals(57, sizes.of("NESTED"));
        StringBuilder deep = new StringBuilder("1");
        for (int i = 0; i < 40; i++) deep.insert(0, "TWICE ( ").append(" )");
        object("DEEP", deep.toString());
        assertEquals(MacroSize.LIMIT + 1, sizes.of("DEEP"));
        object("NAME_ONLY", "TWICE + 1");
        assertEquals(3, sizes.of("NAME_ONLY"));   // a function-like macro without arguments is not expanded
    }

    @Test
    void aChainTooDeepToFollowCountsAsTooLargeWithoutChangingTheSizesOfItsLinks() {
        object("L0", "1");
        for (int i = 1; i <= 2000; i++) object("L" + i, "( L" + (i - 1) + " + 1 )");   // L1 is defined after L2000 uses it
        assertEquals(MacroSize.LIMIT + 1, sizes.of("L2000"));   // 2,000 macros deep: not followed
        // each link asked on its own, nearer ones first (each within the depth once the one before is known),
        // is exact: L1500, which the deep walk met at the limit, included
        for (int i = 300; i <= 1500; i += 400) assertEquals(4 * i + 1, sizes.of("L" + i), "L" + i);
    }

    @Test
    void aMacroThatUsesItselfIsNotExpandedAgain() {
        object("SELF", "( SELF + 1 )");
        object("PING", "( PONG )");
        object("PONG", "( PING )");
        assertEquals(5, sizes.of("SELF"));
        assertEquals(5, sizes.of("PING"));
    }
}
