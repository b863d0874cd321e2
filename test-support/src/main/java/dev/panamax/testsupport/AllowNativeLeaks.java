package dev.panamax.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Exempts a test method (or every test of a class) from {@link NativeLeakExtension}: for tests
 * that leak on purpose, such as tests of leak detection itself. Say why in {@link #value()}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Inherited
public @interface AllowNativeLeaks {
    /** Why this test may leak. */
    String value();
}
