package dev.panamax.tensor.reference;

/**
 * The error function in double, for the oracle (the JDK has none). The series
 * {@code erf(x) = 2/sqrt(pi) exp(-x^2) sum_n (2x^2)^n x / (1 * 3 * ... * (2n + 1))} has only positive
 * terms, so it sums without cancellation to about 1e-15 relative; beyond |x| = 6 erf is 1 to double
 * precision ({@code erfc(6) < 3e-17}).
 */
final class Erf {
    private static final double TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);
    private static final double SATURATES_AT = 6;

    private Erf() {}

    static double erf(double x) {
        if (Double.isNaN(x)) return x;
        if (Math.abs(x) >= SATURATES_AT) return Math.signum(x);
        double twoXSquared = 2 * x * x;
        double term = x, sum = x;
        for (int n = 1; n < 1000; n++) {
            term *= twoXSquared / (2 * n + 1);
            sum += term;
            if (Math.abs(term) <= 1e-17 * Math.abs(sum)) break;
        }
        return TWO_OVER_SQRT_PI * Math.exp(-x * x) * sum;
    }
}
