package dev.panamax.bench;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The stable result name of a JMH benchmark method in the table and the JSON, e.g.
 * {@code @Figure(value = "panamax.standard.nop", baseline = "raw.standard.nop")}.
 * {@code {param}} placeholders are replaced by the JMH parameter of that name
 * ({@code "panamax.heap.sum{n}"} with {@code n=1m} gives {@code panamax.heap.sum1m}).
 * A method without this annotation is reported under its JMH name.
 * With {@code bytesPerOp}, the score is reported as bandwidth in GB/s (10^9 bytes per second)
 * instead of JMH's unit: {@code @Figure(value = "copy.64m.GBps", bytesPerOp = 64L << 20)}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Figure {
    /** The result name. */
    String value();

    /** The result this one is compared against (ratio column); empty for none. */
    String baseline() default "";

    /** Bytes one benchmark operation moves; above 0, the figure is converted to GB/s. */
    long bytesPerOp() default 0;
}
