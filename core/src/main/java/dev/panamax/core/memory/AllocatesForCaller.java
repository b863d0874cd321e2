package dev.panamax.core.memory;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class that makes native resources on its caller's behalf (a binding's typed layer, its
 * handle classes, a library's helpers): leak detection leaves its frames, and those of classes nested
 * in it, out of the allocation site it records, so that a leak report and {@link NativeMemory#outstandingSince} name the caller's
 * line, not the binding's. The full stack is kept either way.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface AllocatesForCaller {}
