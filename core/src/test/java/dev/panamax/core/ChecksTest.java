package dev.panamax.core;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class ChecksTest {
    @Test
    void onUnlessSaidFalse() {
        assertTrue(Checks.parse(null));
        assertTrue(Checks.parse("true"));
        assertTrue(Checks.parse(" TRUE "));
        assertFalse(Checks.parse("false"));
        assertTrue(Checks.CHECKS, "the tests run with the checks on");
    }

    @Test
    void anythingElseIsAnErrorNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Checks.parse("no"));
        assertEquals("bad setting: panamax.checks=no; expected true or false", e.getMessage());
    }
}
