package dev.panamax.bench.opencl;

import java.lang.foreign.MemorySegment;

/**
 * The OpenCL objects of one tiny-kernel set-up, by address: made once (by {@link RawDispatch}) and
 * adopted by every binding in {@link AlternatingDispatch}, so that all of them drive the same
 * context, queue, kernel and buffer and differ only in the binding's own call path.
 * Adopting bindings borrow them; the one that made them releases them.
 */
record ClObjects(MemorySegment context, MemorySegment queue, MemorySegment program, MemorySegment kernel,
                 MemorySegment buffer) {
    ClObjects {
        for (MemorySegment s : new MemorySegment[] {context, queue, program, kernel, buffer}) {
            if (s == null || s.equals(MemorySegment.NULL)) {
                throw new IllegalArgumentException("OpenCL objects to share must all exist: " + this);
            }
        }
    }
}
