package dev.panamax.bindgen.decl;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LengthExprTextTest {
    @Test
    void writesAnExpressionOutWithOnlyTheParenthesesItNeeds() {
        assertEquals("1 + (n - 1) * abs(incx)", LengthExpr.parse("1+(n-1)*abs( incx )").text());
        assertEquals("a - b - c", LengthExpr.parse("(a - b) - c").text());
        assertEquals("a - (b - c)", LengthExpr.parse("a - (b - c)").text());
        assertEquals("a * (b * c)", LengthExpr.parse("a * (b * c)").text());
        assertEquals("-(n - 1) * 2", LengthExpr.parse("-(n - 1) * 2").text());
        assertEquals("order == 101 ? (m - 1) * lda + n : max(lda, 2) * m",
                LengthExpr.parse("order==101 ? ((m - 1) * lda) + n : max(lda,2)*m").text());
        assertEquals("(a < b ? a : b) * 2", LengthExpr.parse("(a < b ? a : b) * 2").text());
    }

    @Test
    void theTextParsesBackToTheSameExpression() {
        for (String text : List.of("1 + (n - 1) * abs(incx)", "a - (b - c) - -d", "--x * -(y + 1)",
                "t == 111 ? (k - 1) * lda + m : (m - 1) * lda + k", "a < b ? c > d ? 1 : 2 : min(a, max(b, 3))",
                "(a == b ? 1 : 2) + (c != d ? 3 : 4)")) {
            LengthExpr e = LengthExpr.parse(text);
            assertEquals(e, LengthExpr.parse(e.text()), text + " written as " + e.text());
        }
    }
}
